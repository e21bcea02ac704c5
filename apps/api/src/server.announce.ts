import { sqliteFilePath } from "@calendar/core";
import { providerOf } from "@calendar/migrate";

/** Which database a URL names, for people: the SQLite file, or PostgreSQL's host and database (no credentials). */
export function describeDatabase(url: string): string {
  if (providerOf(url) === "sqlite") return `SQLite ${sqliteFilePath(url)}`;
  const parsed = new URL(url);
  return `PostgreSQL ${parsed.host}${decodeURIComponent(parsed.pathname)}`;
}

/** The one line the server logs once it listens: where the API and its explorer answer, and on which database. */
export function announcement(address: string, databaseUrl: string): string {
  return `Server listening at ${address}: API ${address}/cal/events/v1, explorer ${address}/docs, database ${describeDatabase(databaseUrl)}`;
}
