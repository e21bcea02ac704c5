import type { Actor } from "../auth/roles.ts";
import type { UnchangedSince } from "../changes/change.record.ts";
import type { Db, Provider } from "../db/db.ts";
import type { ImportCaps } from "../ical/ical.import.schemas.ts";
import type { ChargeEvents, Scope } from "../scope.ts";
import type { SeriesLimits } from "../series/series.limits.ts";
import { type Language, resolveLanguage } from "../shared/language.ts";

/**
 * What a procedure tells the REST transport besides its body; `apps/api/src/rest/` implements it (HTTP headers and
 * path encoding stay there). Null on the tRPC transport.
 */
export interface RestTransport {
  /** The HTTP status of a success (201 on creates). */
  setStatus(status: number): void;
  /** A list page: its totals and neighbours. */
  listPage(page: ListPage): void;
  /** An item's `modified_utc` (`YYYY-MM-DD HH:MM:SS` in UTC). */
  lastModified(modifiedUtc: string): void;
  /** The input with the parameters of `path` (an operation path, `/events/{id}`) as the procedure reads them. */
  decodePathParams(input: unknown, path: string): unknown;
}

/** Settings of the site that services need. */
export interface Site {
  /** IANA time zone of the site (dates without a zone are read in it). */
  timezone: string;
  /** `host[/path]` used in `global_id`. */
  globalIdHost?: string;
  /** Days sync tokens stay usable and deletions are kept in the change feed (default 30). */
  changesRetentionDays?: number;
  /** The public site whose pages show the records (`CALENDAR_SITE_URL`, no trailing slash); permalinks point there. */
  siteUrl?: string | undefined;
  /** Webhooks may also go to http:// URLs and private, loopback or link-local addresses (`CALENDAR_WEBHOOKS_ALLOW_INSECURE`). */
  allowInsecureWebhooks?: boolean;
  /** What one iCalendar import may write; `DEFAULT_IMPORT_CAPS` when absent. */
  importCaps?: ImportCaps;
  /** How far series reach; `DEFAULT_SERIES_LIMITS` when absent. */
  seriesLimits?: SeriesLimits;
  /** Ports an https:// webhook URL may name besides 443 (`CALENDAR_WEBHOOKS_PORTS`). */
  webhookPorts?: readonly number[];
}

/**
 * The context of every procedure; the transports build it (no Fastify types here). Its members are marked internal:
 * the published client's declarations (built with `stripInternal`) see an empty context, never the database types.
 */
export interface Context {
  /** @internal */
  db: Db;
  /** @internal */
  provider: Provider;
  /** @internal */
  actor: Actor;
  /** @internal */
  site: Site;
  /** The language of the path prefix (`/de/cal/events/v1`), null without one or on the tRPC transport. @internal */
  pathLanguage: Language | null;
  /** The request's API root without a trailing slash, e.g. `http://127.0.0.1:3000/de/cal/events/v1`. @internal */
  apiRoot: string;
  /** What the procedure tells the REST transport; null on the tRPC transport. @internal */
  rest: RestTransport | null;
  /**
   * Records the request's `If-Match` / `If-Unmodified-Since` held for, checked at a change version: its writes of
   * them are refused if another write changed them since (see `withUnchangedRecords`). @internal
   */
  unchangedRecords?: readonly UnchangedSince[] | undefined;
  /** Charges a write's events against the caller's limits (see `EventCharge`); absent when none apply. @internal */
  chargeEvents?: ChargeEvents | undefined;
}

export function scopeOf(ctx: Context, mlLanguage: Language | undefined): Scope {
  return {
    db: ctx.db,
    provider: ctx.provider,
    actor: ctx.actor,
    language: resolveLanguage(mlLanguage, ctx.pathLanguage),
    links: { apiRoot: ctx.apiRoot, languageParam: mlLanguage, siteUrl: ctx.site.siteUrl },
    site: ctx.site,
    chargeEvents: ctx.chargeEvents,
  };
}

/** Sets the REST status (201 on creates); nothing on tRPC. */
export function setRestStatus(ctx: Context, status: number): void {
  ctx.rest?.setStatus(status);
}

/** What a list page tells about its neighbours. */
export interface ListPage {
  total: number;
  total_pages: number;
  next_rest_url?: string | undefined;
  previous_rest_url?: string | undefined;
}

/** A list's totals and neighbours, for the REST headers; nothing on tRPC. */
export function setListHeaders(ctx: Context, page: ListPage): void {
  ctx.rest?.listPage(page);
}

/** An item's `Last-Modified`, for the REST header; nothing on tRPC. */
export function setLastModified(ctx: Context, modifiedUtc: string): void {
  ctx.rest?.lastModified(modifiedUtc);
}
