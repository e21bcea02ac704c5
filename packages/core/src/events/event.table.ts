import type { RelationSql, TableSql } from "../db/where-sql.ts";

function eventLinks(table: string): RelationSql {
  return { kind: "many", target: { table }, on: (inner, outer) => `${inner}."eventId" = ${outer}."id"` };
}
/** The event table as the list's filters (`buildEventWhere`) name its relations, for their SQL. */
export const EVENT_TABLE: TableSql = {
  table: "Event",
  relations: {
    categories: eventLinks("EventCategory"),
    tags: eventLinks("EventTag"),
    organizers: eventLinks("EventOrganizer"),
    venues: {
      ...eventLinks("EventVenue"),
      target: {
        table: "EventVenue",
        relations: {
          venue: {
            kind: "one",
            target: { table: "Venue" },
            on: (inner, outer) => `${inner}."id" = ${outer}."venueId"`,
          },
        },
      },
    },
  },
};
