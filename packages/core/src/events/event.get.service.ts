import { canRead, isRedacted } from "../auth/visibility.ts";
import { domainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import { findBySlug } from "../shared/slug.ts";
import { type LoadedEvent, readEvent } from "./event.document.ts";
import { unknownSlug } from "./event.load.ts";
import type { EventDetailOutput } from "./event.output.schemas.ts";
import { type OccurrenceSeries, presentEventDetail } from "./event.present.ts";
import type { EventRow } from "./event.rows.ts";
import type { EventGetBySlugInput, EventGetInput } from "./event.schemas.ts";

/** The series of an occurrence as its JSON-LD tells it (null for a single event). */
async function loadOccurrenceSeries(scope: Scope, row: EventRow): Promise<OccurrenceSeries | null> {
  if (row.seriesId === null) return null;
  const series = await scope.db.eventSeries.findUnique({ where: { id: row.seriesId } });
  if (!series) return null;
  const first =
    series.firstEventId === null
      ? null
      : await scope.db.event.findUnique({
          where: { id: series.firstEventId },
          select: { slug: true, language: true, status: true, authorId: true },
        });
  return {
    lines: JSON.parse(series.recurrence) as string[],
    timezone: series.timezone,
    allDay: series.allDay,
    startLocal: series.startLocal,
    durationSeconds: series.durationSeconds,
    first: first && first.status !== "trash" && canRead(scope.actor, first) ? first : null,
  };
}

/** A single GET, with the reference's checks in order: missing, trashed, not visible, password. */
async function presentReadable(
  scope: Scope,
  { row, relations }: LoadedEvent,
  password: string | undefined,
): Promise<EventDetailOutput> {
  if (row.status === "trash") throw domainError("event-no-longer-available");
  if (!canRead(scope.actor, row)) throw domainError("event-not-accessible");
  if (isRedacted(scope.actor, row, password)) throw domainError("event-password-protected");
  const [related, series] = await Promise.all([relations({ jsonLd: true }), loadOccurrenceSeries(scope, row)]);
  return presentEventDetail(row, related, scope.links, series);
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
