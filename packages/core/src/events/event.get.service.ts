import { canRead, isRedacted } from "../auth/visibility.ts";
import { domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { findBySlug } from "../shared/slug.ts";
import { type LoadedEvent, readEvent } from "./event.document.ts";
import { unknownSlug } from "./event.load.ts";
import type { EventDetailOutput } from "./event.output.schemas.ts";
import { presentEventDetail } from "./event.present.ts";
import type { EventGetBySlugInput, EventGetInput } from "./event.schemas.ts";

/** A single GET, with the reference's checks in order: missing, trashed, not visible, password. */
async function presentReadable(
  scope: Scope,
  { row, relations }: LoadedEvent,
  password: string | undefined,
): Promise<EventDetailOutput> {
  if (row.status === "trash") throw domainError("event-no-longer-available");
  if (!canRead(scope.actor, row)) throw domainError("event-not-accessible");
  if (isRedacted(scope.actor, row, password)) throw domainError("event-password-protected");
  return presentEventDetail(row, await relations({ jsonLd: true }), scope.links);
}

/** `GET /events/{id}`: an event of any language. */
export async function getEvent(
  scope: Scope,
  input: Pick<EventGetInput, "id" | "password">,
): Promise<EventDetailOutput> {
  const loaded = await readEvent(scope, { id: input.id });
  if (!loaded) throw domainError("rest-event-not-found", { id: input.id });
  return presentReadable(scope, loaded, input.password);
}

/** `GET /events/by-slug/{slug}`: the event with that slug in the request's language; unknown → 400. */
export async function getEventBySlug(
  scope: Scope,
  input: Pick<EventGetBySlugInput, "slug" | "password">,
): Promise<EventDetailOutput> {
  const loaded = await findBySlug(input.slug, scope.language, (slug) =>
    readEvent(scope, { language: scope.language, slug }),
  );
  if (!loaded) throw unknownSlug(input.slug);
  return presentReadable(scope, loaded, input.password);
}
