import {
  appRouter,
  type Context,
  createCallerFactory,
  type DbHandle,
  domainError,
  type Language,
  type Scope,
  type Site,
  scopeOf,
} from "@calendar/core";
import { toolAdministrator } from "../tool-administrator.ts";

/** The administrator that owns seeded content. It has no usable token: it exists to be the author. */
export const SEED_LOGIN = "calendar-seed";

const SEED_API_ROOT = "http://localhost/cal/events/v1";

const createCaller = createCallerFactory(appRouter);

/** What a seed writes through: the procedures (as a client would) and, for large batches, the service scopes. */
export interface Seeder {
  caller: ReturnType<typeof createCaller>;
  scope(language: Language): Scope;
}

/**
 * A seeder over an empty calendar; with `force`, over one that already has events (the demo data is added to
 * them). Without it a calendar with events is a 409 that says both ways on.
 */
export async function createSeeder(handle: DbHandle, site: Site, options: { force?: boolean } = {}): Promise<Seeder> {
  const existing = await handle.db.event.count();
  if (existing > 0 && !options.force) {
    throw domainError("seed_not_empty", { events: existing });
  }
  const context: Context = {
    db: handle.db,
    provider: handle.provider,
    actor: await toolAdministrator(handle, SEED_LOGIN, "Calendar seed"),
    site,
    pathLanguage: null,
    apiRoot: SEED_API_ROOT,
    rest: null,
  };
  return { caller: createCaller(context), scope: (language) => scopeOf(context, language) };
}
