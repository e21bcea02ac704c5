import { describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS, ROLES } from "../auth/roles.ts";
import type { GuardedPost, PostWhere } from "../auth/visibility.ts";
import { linkedPostShownWhere, linkedPostView } from "./event.visibility.ts";

const ACTOR_ID = 7;
const actors: Actor[] = [
  ANONYMOUS,
  ...ROLES.map((role) => ({ kind: "user" as const, id: ACTOR_ID, login: role, role })),
];
const linkedPosts: GuardedPost[] = ["publish", "future", "draft", "pending", "private"].flatMap((status) =>
  [ACTOR_ID, ACTOR_ID + 1, null].flatMap((authorId) =>
    ["", "secret"].map((password) => ({ status, authorId, password })),
  ),
);

type Condition = string | number | null | { in?: string[]; not?: string; notIn?: string[] };

/** Evaluates a `where` of `PostWhere`'s shape against a record, as the database would. */
function matches(post: GuardedPost, where: PostWhere | undefined): boolean {
  if (where === undefined) return true;
  if ("OR" in where) return where.OR.some((part) => matches(post, part));
  if ("AND" in where) return where.AND.every((part) => matches(post, part));
  return Object.entries(where).every(([column, condition]: [string, Condition]) => {
    const value = post[column as keyof GuardedPost];
    if (condition === null || typeof condition !== "object") return value === condition;
    if (condition.in) return condition.in.includes(String(value));
    if (condition.notIn) return !condition.notIn.includes(String(value));
    return value !== condition.not;
  });
}

describe("what an event shows of a linked record: the predicate and its where agree", () => {
  it.each(actors.map((actor) => [actor.kind === "user" ? actor.role : "anonymous", actor] as const))(
    "%s",
    (_name, actor) => {
      for (const post of linkedPosts) {
        const view = linkedPostView(actor, post);
        const context = JSON.stringify(post);
        expect(matches(post, linkedPostShownWhere(actor, "link")), `link: ${context}`).toBe(view !== null);
        expect(matches(post, linkedPostShownWhere(actor, "details")), `details: ${context}`).toBe(
          view !== null && !view.redacted,
        );
      }
    },
  );

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
