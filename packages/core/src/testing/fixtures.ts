import type { z } from "zod";
import type { Actor } from "../auth/roles.ts";
import { createEvent } from "../events/event.create.service.ts";
import { eventCreateBody } from "../events/event.schemas.ts";
import { organizerCreateBody } from "../organizers/organizer.schemas.ts";
import { createOrganizer } from "../organizers/organizer.service.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { venueCreateBody } from "../venues/venue.schemas.ts";
import { createVenue } from "../venues/venue.service.ts";

/**
 * Fixtures written through the services, for tests that compare reads over a calendar as the API writes it
 * (translations, protected and trashed records, inline venues and organizers) rather than rows written directly.
 */

/** The password of the password-protected fixtures. */
export const FIXTURE_PASSWORD = "open sesame";

/** The dates of an event fixture that does not state its own: 2031-03-01, 19:00–21:30 in the event's zone. */
const EVENT_DATES = { start_date: "2031-03-01 19:00:00", end_date: "2031-03-01 21:30:00" };

/**
 * Writers of venues, organizers and events as the API writes them: the body checked by the create schema, then
 * written by `actor` in `language` (English unless stated).
 */
export function serviceWriters(scopeOf: (actor: Actor, language: Language) => Scope) {
  return {
    venue: (actor: Actor, body: z.input<typeof venueCreateBody>, language: Language = "en") =>
      createVenue(scopeOf(actor, language), venueCreateBody.parse(body)),
    organizer: (actor: Actor, body: z.input<typeof organizerCreateBody>, language: Language = "en") =>
      createOrganizer(scopeOf(actor, language), organizerCreateBody.parse(body)),
    event: (actor: Actor, body: Partial<z.input<typeof eventCreateBody>>, language: Language = "en") =>
      createEvent(scopeOf(actor, language), eventCreateBody.parse({ ...EVENT_DATES, ...body })),
  };
}
