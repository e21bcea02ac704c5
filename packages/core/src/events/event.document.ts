import { isListedFor } from "../auth/visibility.ts";
import { readerOf } from "../db/db.ts";
import { columnsOf, instantOf, JSON_SQL, type JsonSql, perProvider, reviveRow, type Stored } from "../db/json-sql.ts";
import { type PageQuery, readPage } from "../db/page-sql.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import { type OrganizerRow, presentOrganizer } from "../organizers/organizer.present.ts";
import type { Scope } from "../scope.ts";
import type { ImageRecord } from "../shared/images.ts";
import { listTextColumns, withListTexts } from "../shared/list-text.ts";
import type { PresentView } from "../shared/present-view.ts";
import { type Translatable, translationsOf } from "../shared/translations.ts";
import { presentEmbeddedTerm } from "../terms/term.present.ts";
import type { TermRow } from "../terms/term.store.ts";
import { presentVenue, type VenueRow } from "../venues/venue.present.ts";
import type { EventRelations } from "./event.present.ts";
import { EVENT_COLUMNS, type EventRow } from "./event.rows.ts";
import { EVENT_TABLE } from "./event.table.ts";
import { linkedPostView } from "./event.visibility.ts";

/**
 * One event with everything its answer shows (image, links, venues, organizers, terms, the translation groups of
 * each) read in one statement that the database turns into one JSON document, then presented by the same
 * presenters as every other event read.
 */

type EventColumns = Omit<EventRow, "image" | "venues" | "organizers" | "categories" | "tags">;
type LinkedPostColumns<Row> = Omit<Row, "image">;

/** A member of a translation group, with what decides whether the reader may list it. */
interface Member extends Translatable {
  status: string;
  authorId: number | null;
}

type WithImage<T> = T & { image: ImageRecord | null };
type StoredLinkedPost<Row> = WithImage<Stored<LinkedPostColumns<Row>>> & { members: Member[] };

interface EventDocument {
  event: WithImage<Stored<EventColumns>>;
  venueIds: number[];
  organizerIds: number[];
  categoryIds: number[];
  tagIds: number[];
  members: Member[];
  venues: Array<StoredLinkedPost<VenueRow>>;
  organizers: Array<StoredLinkedPost<OrganizerRow>>;
  categories: Array<Stored<TermRow>>;
  tags: Array<Stored<TermRow>>;
  /** The JSON array of the lines of the event's series, if it is an occurrence of one. */
  seriesLines: string | null;
}

/** The columns every event read loads: the same as the Prisma reads (`EVENT_COLUMNS` of `event.rows.ts`). */
const EVENT_READ_COLUMNS = Object.values(Prisma.EventScalarFieldEnum).filter(
  (column) => !(column in EVENT_COLUMNS.omit),
);
const VENUE_COLUMNS = Object.values(Prisma.VenueScalarFieldEnum);
const ORGANIZER_COLUMNS = Object.values(Prisma.OrganizerScalarFieldEnum);
const TERM_COLUMNS = ["id", "name", "nameKey", "slug", "description", "language", "translationGroup", "eventCount"];
const MEMBER_COLUMNS = ["id", "language", "translationGroup", "status", "authorId"];

/** The columns as a single read shows them, or as a list does (`listTextColumns`: long texts only as far as shown). */
type ColumnsOf = (alias: string, columns: readonly string[]) => Array<readonly [string, string]>;

function documentOf(sql: JsonSql, columns: ColumnsOf): string {
  const image = (alias: string) =>
    sql.value(`SELECT ${sql.object(columnsOf("i", ["id", "url"]))} FROM "Image" i WHERE i."id" = ${alias}."imageId"`);
  // In the order the Prisma reads list them: venues and organizers newest first, events by language.
  const members = (table: string, alias: string, order: string) =>
    sql.array(
      sql.object(columnsOf("m", MEMBER_COLUMNS)),
      `FROM "${table}" m WHERE m."translationGroup" = ${alias}."translationGroup"`,
      order,
    );
  const linkIds = (table: string, column: string, order: string) =>
    sql.array(`l."${column}"`, `FROM "${table}" l WHERE l."eventId" = e."id"`, order);
  const linked = (table: string, link: string, column: string, postColumns: readonly string[]) =>
    sql.array(
      sql.object([
        ...columns("p", postColumns),
        ["image", image("p")],
        ["members", members(table, "p", `m."postDateUtc" DESC, m."id" DESC`)],
      ]),
      `FROM "${table}" p WHERE p."status" <> 'trash' AND p."id" IN (SELECT "${column}" FROM "${link}" WHERE "eventId" = e."id")`,
      `p."id"`,
    );
  const terms = (table: string, link: string, column: string, parent: string) =>
    sql.array(
      sql.object([...columnsOf("t", TERM_COLUMNS), ["parentId", parent]]),
      `FROM "${table}" t WHERE t."id" IN (SELECT "${column}" FROM "${link}" WHERE "eventId" = e."id")`,
      `t."id"`,
    );
  return sql.object([
    ["event", sql.object([...columns("e", EVENT_READ_COLUMNS), ["image", image("e")]])],
    ["venueIds", linkIds("EventVenue", "venueId", `l."position", l."venueId"`)],
    ["organizerIds", linkIds("EventOrganizer", "organizerId", `l."position", l."organizerId"`)],
    ["categoryIds", linkIds("EventCategory", "categoryId", `l."categoryId"`)],
    ["tagIds", linkIds("EventTag", "tagId", `l."tagId"`)],
    ["members", members("Event", "e", `m."language", m."id"`)],
    ["venues", linked("Venue", "EventVenue", "venueId", VENUE_COLUMNS)],
    ["organizers", linked("Organizer", "EventOrganizer", "organizerId", ORGANIZER_COLUMNS)],
    ["categories", terms("Category", "EventCategory", "categoryId", `t."parentId"`)],
    ["tags", terms("Tag", "EventTag", "tagId", "NULL")],
    // Most events are in no series: the CASE skips the lookup for them.
    [
      "seriesLines",
      `CASE WHEN e."seriesId" IS NULL THEN NULL ELSE (SELECT s."recurrence" FROM "EventSeries" s WHERE s."id" = e."seriesId") END`,
    ],
  ]);
}

function statementsOf(sql: JsonSql, document: string, listDocument: string) {
  return {
    id: `SELECT ${sql.text(document)} FROM "Event" e WHERE e."id" = ${sql.param(1)}`,
    slug: `SELECT ${sql.text(document)} FROM "Event" e WHERE e."language" = ${sql.param(1)} AND e."slug" = ${sql.param(2)}`,
    ids: `SELECT ${sql.text(sql.aggregate(listDocument))} FROM "Event" e WHERE ${sql.inIds(`e."id"`)}`,
  };
}

const DOCUMENTS = perProvider((sql) => documentOf(sql, columnsOf));
/** A list's events: each long text read only as far as a list shows it (`shared/list-text.ts`). */
const LIST_DOCUMENTS = perProvider((sql) => documentOf(sql, listTextColumns));
const STATEMENTS = perProvider((sql, provider) => statementsOf(sql, DOCUMENTS[provider], LIST_DOCUMENTS[provider]));

export type EventKey = { id: number } | { language: string; slug: string };

/** The event's row and, once it may be shown, what it links to, presented for the scope's actor. */
export interface LoadedEvent {
  row: EventRow;
  relations(options: { jsonLd: boolean }): Promise<EventRelations>;
}

function reviveEvent(document: EventDocument): EventRow {
  const event = reviveRow<WithImage<EventColumns>>(
    document.event,
    ["postDateUtc", "modifiedUtc", "startUtc", "endUtc"],
    ["allDay", "hideFromListings", "sticky", "featured", "showMap", "showMapLink", "ticketed"],
  );
  const originalStart = document.event.originalStartUtc;
  return {
    ...event,
    originalStartUtc: originalStart === null ? null : instantOf(String(originalStart)),
    venues: document.venueIds.map((venueId) => ({ venueId })),
    organizers: document.organizerIds.map((organizerId) => ({ organizerId })),
    categories: document.categoryIds.map((categoryId) => ({ categoryId })),
    tags: document.tagIds.map((tagId) => ({ tagId })),
  };
}

/** The translations of each record: the other members of its group that the actor may list. */
function translationsIn(scope: Scope, records: ReadonlyArray<Translatable & { members: Member[] }>) {
  const members = records.flatMap((record) => record.members).filter((member) => isListedFor(scope.actor, member));
  return translationsOf(records, async () => members);
}

async function presentLinked<
  Row extends { id: number; password: string; status: string; authorId: number | null },
  Output,
>(
  scope: Scope,
  rows: ReadonlyArray<Row & { members: Member[]; language: string; translationGroup: string | null }>,
  present: (row: Row, view: PresentView) => Output,
  jsonLd: boolean,
): Promise<Map<number, Output>> {
  const shown = rows.flatMap((row) => {
    const view = linkedPostView(scope.actor, row);
    return view ? [{ row, view }] : [];
  });
  const translations = await translationsIn(
    scope,
    shown.map(({ row }) => row),
  );
  return new Map(
    shown.map(({ row, view }) => [
      row.id,
      present(row, {
        links: scope.links,
        jsonLd,
        redacted: view.redacted,
        translations: translations.get(row.id) ?? {},
      }),
    ]),
  );
}

function termsById(scope: Scope, taxonomy: "category" | "tag", rows: ReadonlyArray<Stored<TermRow>>) {
  return new Map(rows.map((row) => [row.id, presentEmbeddedTerm(taxonomy, row, row.eventCount, scope.links)]));
}

function uniqueById<T extends { id: number }>(items: readonly T[]): T[] {
  return [...new Map(items.map((item) => [item.id, item])).values()];
}

/**
 * What the documents' events link to, presented for the scope's actor, as the event presenters take it: venues and
 * organizers only where the actor may read them (`linkedPostView`).
 */
async function relationsOf(
  scope: Scope,
  documents: readonly EventDocument[],
  jsonLd: boolean,
): Promise<EventRelations> {
  const dates = ["postDateUtc", "modifiedUtc"] as const;
  const venues = uniqueById(documents.flatMap((document) => document.venues)).map((venue) => ({
    ...reviveRow<VenueRow>(venue, dates, ["showMap", "showMapLink"]),
    members: venue.members,
  }));
  const organizers = uniqueById(documents.flatMap((document) => document.organizers)).map((organizer) => ({
    ...reviveRow<OrganizerRow>(organizer, dates, []),
    members: organizer.members,
  }));
  const events = documents.map((document) => ({ ...document.event, members: document.members }));
  const [venueOutputs, organizerOutputs, translations] = await Promise.all([
    presentLinked(scope, venues, presentVenue, jsonLd),
    presentLinked(scope, organizers, presentOrganizer, jsonLd),
    translationsIn(scope, events),
  ]);
  return {
    venues: venueOutputs,
    organizers: organizerOutputs,
    categories: termsById(
      scope,
      "category",
      documents.flatMap((document) => document.categories),
    ),
    tags: termsById(
      scope,
      "tag",
      documents.flatMap((document) => document.tags),
    ),
    translations,
    series: new Map(
      documents.flatMap(({ event, seriesLines }) =>
        event.seriesId !== null && seriesLines !== null ? [[event.seriesId, JSON.parse(seriesLines) as string[]]] : [],
      ),
    ),
  };
}

/** The event by id or by slug in a language, or null when there is none. */
export async function readEvent(scope: Scope, key: EventKey): Promise<LoadedEvent | null> {
  const statements = STATEMENTS[scope.provider];
  const reader = readerOf(scope.db);
  const text =
    "id" in key
      ? await reader.json(statements.id, [key.id])
      : await reader.json(statements.slug, [key.language, key.slug]);
  if (text === null) return null;
  const document = JSON.parse(text) as EventDocument;
  return { row: reviveEvent(document), relations: ({ jsonLd }) => relationsOf(scope, [document], jsonLd) };
}

/** A page of events, in the order of `ids` (ids of events that no longer exist are left out). */
export interface LoadedEvents {
  rows: EventRow[];
  relations(options: { jsonLd: boolean }): Promise<EventRelations>;
}

/** The events of a list page, their long texts and those of their venues and organizers as a list shows them. */
function loadedEvents(scope: Scope, read: EventDocument[]): LoadedEvents {
  const documents = read.map((document) => ({
    ...document,
    event: withListTexts(document.event),
    venues: document.venues.map(withListTexts),
    organizers: document.organizers.map(withListTexts),
  }));
  return { rows: documents.map(reviveEvent), relations: ({ jsonLd }) => relationsOf(scope, documents, jsonLd) };
}

export async function readEvents(scope: Scope, ids: readonly number[]): Promise<LoadedEvents> {
  const text = ids.length
    ? await readerOf(scope.db).json(STATEMENTS[scope.provider].ids, [JSON_SQL[scope.provider].idsParam(ids)])
    : null;
  const byId = new Map((JSON.parse(text ?? "[]") as EventDocument[]).map((document) => [document.event.id, document]));
  return loadedEvents(
    scope,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** The number of events `where` selects, and the page of them in `orderBy`'s order: one statement, one snapshot. */
export async function readEventPage(
  scope: Scope,
  page: Omit<PageQuery, "table" | "element">,
): Promise<LoadedEvents & { total: number }> {
  const document = LIST_DOCUMENTS[scope.provider];
  const { total, rows } = await readPage<EventDocument>(readerOf(scope.db), scope.provider, {
    ...page,
    table: EVENT_TABLE,
    element: (alias) => {
      if (alias !== "e") throw new Error("The event document reads the event as e.");
      return document;
    },
  });
  return { total, ...loadedEvents(scope, rows) };
}
