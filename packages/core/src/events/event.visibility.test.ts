import { describe, expect, it } from "vitest";
import { ACTOR_ID, matches, NAMED_ACTORS, postsIn } from "../auth/post-where.testing.ts";
import { type Actor, ANONYMOUS } from "../auth/roles.ts";
import { linkedPostShownWhere, linkedPostView } from "./event.visibility.ts";

const linkedPosts = postsIn(["publish", "future", "draft", "pending", "private"]);

describe("what an event shows of a linked record: the predicate and its where agree", () => {
  it.each(NAMED_ACTORS)("%s", (_name, actor) => {
    for (const post of linkedPosts) {
      const view = linkedPostView(actor, post);
      const context = JSON.stringify(post);
      expect(matches(post, linkedPostShownWhere(actor, "link")), `link: ${context}`).toBe(view !== null);
      expect(matches(post, linkedPostShownWhere(actor, "details")), `details: ${context}`).toBe(
        view !== null && !view.redacted,
      );
    }
  });

  it("hides a linked draft of another from its readers, and a protected one's details from all but its editors", () => {
    const author: Actor = { kind: "user", id: ACTOR_ID, login: "author", role: "author" };
    const othersDraft = { status: "draft", authorId: ACTOR_ID + 1, password: "" };
    const othersProtected = { status: "publish", authorId: ACTOR_ID + 1, password: "secret" };
    expect(linkedPostView(ANONYMOUS, othersDraft)).toBeNull();
    expect(linkedPostView(author, othersDraft)).toBeNull();
    expect(linkedPostView(author, { ...othersDraft, authorId: ACTOR_ID })).toEqual({ redacted: false });
    expect(linkedPostView(author, othersProtected)).toEqual({ redacted: true });
    expect(linkedPostView(author, { ...othersProtected, authorId: ACTOR_ID })).toEqual({ redacted: false });
  });
});
