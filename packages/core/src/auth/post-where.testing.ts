import { type Actor, ANONYMOUS, ROLES } from "./roles.ts";
import type { GuardedPost, PostWhere } from "./visibility.ts";

/** The tests of a visibility rule's two forms: every kind of actor, every post they may meet, the where applied. */

export const ACTOR_ID = 7;

/** Anonymous, then a user of each role, all with the id `ACTOR_ID`, named for `it.each`. */
export const NAMED_ACTORS: ReadonlyArray<readonly [string, Actor]> = [
  ["anonymous", ANONYMOUS],
  ...ROLES.map((role) => [role, { kind: "user" as const, id: ACTOR_ID, login: role, role }] as const),
];

/** A post of each of these statuses, owned by the actor, by another or by nobody, with a password or none. */
export function postsIn(statuses: readonly string[]): GuardedPost[] {
  return statuses.flatMap((status) =>
    [ACTOR_ID, ACTOR_ID + 1, null].flatMap((authorId) =>
      ["", "secret"].map((password) => ({ status, authorId, password })),
    ),
  );
}

type Condition = string | number | null | { in?: string[]; not?: string; notIn?: string[] };

/** Evaluates a `where` of `PostWhere`'s shape against a record, as the database would. */
export function matches(post: GuardedPost, where: PostWhere | undefined): boolean {
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
