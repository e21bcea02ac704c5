import { describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS, ROLES } from "./roles.ts";
import {
  canRead,
  detailsAccess,
  detailsShownWhere,
  type GuardedPost,
  isListedFor,
  isRedacted,
  listStatusWhere,
  type PostWhere,
  readableWhere,
} from "./visibility.ts";

const ACTOR_ID = 7;
const actors: Actor[] = [
  ANONYMOUS,
  ...ROLES.map((role) => ({ kind: "user" as const, id: ACTOR_ID, login: role, role })),
];
const STATUSES = ["publish", "future", "draft", "pending", "private", "trash"];
const posts: GuardedPost[] = STATUSES.flatMap((status) =>
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

function describeCase(actor: Actor, post: GuardedPost): string {
  return `${actor.kind === "user" ? actor.role : "anonymous"} on ${JSON.stringify(post)}`;
}

describe("post visibility: each predicate and its where agree", () => {
  it.each(actors.map((actor) => [actor.kind === "user" ? actor.role : "anonymous", actor] as const))(
    "%s",
    (_name, actor) => {
      for (const post of posts) {
        const name = describeCase(actor, post);
        expect(matches(post, readableWhere(actor)), `readable: ${name}`).toBe(canRead(actor, post));
        expect(matches(post, listStatusWhere(actor, undefined)), `listed: ${name}`).toBe(isListedFor(actor, post));
        const shown = detailsShownWhere(detailsAccess(actor));
        expect(matches(post, shown), `details: ${name}`).toBe(!isRedacted(actor, post));
      }
    },
  );

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
