import { describe, expect, it } from "vitest";
import { ACTOR_ID, matches, NAMED_ACTORS, postsIn } from "./post-where.testing.ts";
import { type Actor, ANONYMOUS, type ROLES } from "./roles.ts";
import {
  canRead,
  detailsAccess,
  detailsShownWhere,
  type GuardedPost,
  isListedFor,
  isRedacted,
  listStatusWhere,
  readableWhere,
} from "./visibility.ts";

const posts = postsIn(["publish", "future", "draft", "pending", "private", "trash"]);

function describeCase(actor: Actor, post: GuardedPost): string {
  return `${actor.kind === "user" ? actor.role : "anonymous"} on ${JSON.stringify(post)}`;
}

describe("post visibility: each predicate and its where agree", () => {
  it.each(NAMED_ACTORS)("%s", (_name, actor) => {
    for (const post of posts) {
      const name = describeCase(actor, post);
      expect(matches(post, readableWhere(actor)), `readable: ${name}`).toBe(canRead(actor, post));
      expect(matches(post, listStatusWhere(actor, undefined)), `listed: ${name}`).toBe(isListedFor(actor, post));
      const shown = detailsShownWhere(detailsAccess(actor));
      expect(matches(post, shown), `details: ${name}`).toBe(!isRedacted(actor, post));
    }
  });

  it("opens every protected detail to editors, own editable ones to authors and contributors, none to others", () => {
    const user = (role: (typeof ROLES)[number]): Actor => ({ kind: "user", id: ACTOR_ID, login: role, role });
    expect(detailsAccess(ANONYMOUS)).toBe("none");
    expect(detailsAccess(user("subscriber"))).toBe("none");
    expect(detailsAccess(user("contributor"))).toEqual({
      authorId: ACTOR_ID,
      status: { notIn: ["publish", "future", "private"] },
    });
    expect(detailsAccess(user("author"))).toEqual({ authorId: ACTOR_ID });
    expect(detailsAccess(user("editor"))).toBe("all");
  });
});
