import type { Actor } from "./auth/roles.ts";
import type { Db, Provider } from "./db/db.ts";
import type { Language } from "./shared/language.ts";
import type { LinkBase } from "./shared/links.ts";
import type { Site } from "./trpc/context.ts";

/** What a service needs from a request: database, actor, language, link base and site settings. */
export interface Scope {
  db: Db;
  provider: Provider;
  actor: Actor;
  language: Language;
  links: LinkBase;
  site: Site;
}
