import { type DomainError, invalidParam } from "../errors.ts";

/** Ids of a `venue`/`organizer` parameter that name no such record: 400 naming the parameter. */
export function unknownLinkedIds(param: "venue" | "organizer", ids: readonly number[]): DomainError {
  return invalidParam(param, `No ${param} with the id(s) ${ids.join(", ")}.`);
}
