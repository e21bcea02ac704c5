import type { Actor } from "./auth/roles.ts";
import type { Db, Provider } from "./db/db.ts";
import type { Language } from "./shared/language.ts";
import type { LinkBase } from "./shared/links.ts";
import type { Site } from "./trpc/context.ts";

/**
 * What a write costs beyond the one write its request counts: a series write changes many events. The transport
 * charges it against the caller's limits (the write rate limit, the occurrence quota) and throws 429
 * (`rest_too_many_requests`) past them; a service charges before it writes, so that a refused write writes nothing.
 */
export interface EventCharge {
  /** Events the write changes besides the one its request counts. */
  written: number;
  /** Occurrences of series it creates. */
  created: number;
}

export type ChargeEvents = (charge: EventCharge) => void;

/** What a service needs from a request: database, actor, language, link base and site settings. */
export interface Scope {
  db: Db;
  provider: Provider;
  actor: Actor;
  language: Language;
  links: LinkBase;
  site: Site;
  chargeEvents?: ChargeEvents | undefined;
}
