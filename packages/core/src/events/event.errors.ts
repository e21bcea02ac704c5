import { DomainError, invalidParam } from "../errors.ts";

/** The event errors of the reference (section 1.3), with its codes and messages. */

export function eventNotFound(id: number): DomainError {
  return new DomainError(404, "rest-event-not-found", `Event with ID ${id} does not exist.`);
}

export function eventNoLongerAvailable(): DomainError {
  return new DomainError(403, "event-no-longer-available", "This event is no longer available");
}

export function eventNotAccessible(): DomainError {
  return new DomainError(403, "event-not-accessible", "The requested event is not accessible");
}

export function eventPasswordProtected(): DomainError {
  return new DomainError(403, "event-password-protected", "The requested event is not accessible without a password");
}

export function eventArchivePageNotFound(): DomainError {
  return new DomainError(404, "event-archive-page-not-found", "The requested event archive page does not exist");
}

export function eventInTrash(): DomainError {
  return new DomainError(410, "event-is-in-trash", "The event is already trashed");
}

export function invalidLinkedPostId(): DomainError {
  return new DomainError(400, "invalid-linked-post-id", "The provided linked post ID is not valid");
}

/** Ids of a `venue`/`organizer` parameter that name no such record: 400 naming the parameter. */
export function unknownLinkedIds(param: "venue" | "organizer", ids: readonly number[]): DomainError {
  return invalidParam(param, `No ${param} with the id(s) ${ids.join(", ")}.`);
}
