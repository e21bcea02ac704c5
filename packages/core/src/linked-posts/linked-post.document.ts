import { isListedFor } from "../auth/visibility.ts";
import { readerOf } from "../db/db.ts";
import { columnsOf, flagOf, instantOf, JSON_SQL } from "../db/json-sql.ts";
import { readPage } from "../db/page-sql.ts";
import type { TableSql } from "../db/where-sql.ts";
import { Prisma } from "../generated/sqlite/client.ts";
import type { Scope } from "../scope.ts";
import { listTextColumns, withListTexts } from "../shared/list-text.ts";
import { type Translatable, type Translations, translationsOf } from "../shared/translations.ts";
import type { LinkedPostRow, LinkedPostWhere } from "./linked-post.kind.ts";
import { LINKED_POST_ORDER } from "./linked-post.where.ts";

/**
 * A page of venues or organizers in one statement on the raw reader: the total, and each row with its image and the
 * members of its translation group, as one JSON document built by the database. The filters are the service's own
 * `where` (`buildLinkedPostWhere`), written as SQL.
 */

/** A member of a translation group, with what decides whether the reader may list it. */
interface Member extends Translatable {
  status: string;
  authorId: number | null;
}

type StoredRow = Record<string, unknown> & { id: number; members: Member[] };

const EVENT_TABLE: TableSql = { table: "Event" };

function tableOf(table: string, link: string, key: string): TableSql {
  const linkTable: TableSql = {
    table: link,
    relations: {
      event: { kind: "one", target: EVENT_TABLE, on: (inner, outer) => `${inner}."id" = ${outer}."eventId"` },
    },
  };
  return {
    table,
    relations: {
      events: { kind: "many", target: linkTable, on: (inner, outer) => `${inner}."${key}" = ${outer}."id"` },
    },
  };
}

const KINDS = {
  venue: {
    table: tableOf("Venue", "EventVenue", "venueId"),
    columns: Object.values(Prisma.VenueScalarFieldEnum),
    flags: ["showMap", "showMapLink"],
  },
  organizer: {
    table: tableOf("Organizer", "EventOrganizer", "organizerId"),
    columns: Object.values(Prisma.OrganizerScalarFieldEnum),
    flags: [],
  },
} as const;

const INSTANTS = ["postDateUtc", "modifiedUtc"];
const MEMBER_COLUMNS = ["id", "language", "translationGroup", "status", "authorId"];

export interface LinkedPostPage<Own> {
  total: number;
  rows: Array<LinkedPostRow<Own>>;
  /** The translations of each row that the scope's actor may list, by row id. */
  translations: Map<number, Translations>;
}

/** The row Prisma would have read: instants as `Date`, booleans as booleans. */
function revive<Own>({ members: _members, ...stored }: StoredRow, flags: readonly string[]): LinkedPostRow<Own> {
  const row: Record<string, unknown> = { ...stored };
  for (const key of INSTANTS) row[key] = instantOf(String(row[key]));
  for (const key of flags) row[key] = flagOf(row[key]);
  return row as LinkedPostRow<Own>;
}

/** The page `where` selects of the kind's records, newest first, their long texts as a list shows them. */
export async function readLinkedPostPage<Own>(
  scope: Scope,
  kind: keyof typeof KINDS,
  where: LinkedPostWhere,
  window: { skip: number; take: number },
): Promise<LinkedPostPage<Own>> {
  const { table, columns, flags } = KINDS[kind];
  const sql = JSON_SQL[scope.provider];
  const page = await readPage<StoredRow>(readerOf(scope.db), scope.provider, {
    table,
    where,
    orderBy: LINKED_POST_ORDER,
    window,
    element: (alias) =>
      sql.object([
        ...listTextColumns(alias, columns),
        [
          "image",
          sql.value(
            `SELECT ${sql.object(columnsOf("i", ["id", "url"]))} FROM "Image" i WHERE i."id" = ${alias}."imageId"`,
          ),
        ],
        [
          "members",
          sql.array(
            sql.object(columnsOf("m", MEMBER_COLUMNS)),
            `FROM "${table.table}" m WHERE m."translationGroup" = ${alias}."translationGroup"`,
            `m."id"`,
          ),
        ],
      ]),
  });
  const members = page.rows.flatMap((row) => row.members).filter((member) => isListedFor(scope.actor, member));
  const rows = page.rows.map((row) => withListTexts(revive<Own>(row, flags)));
  return { total: page.total, rows, translations: await translationsOf(rows, async () => members) };
}
