import {
  type Actor,
  appRouter,
  type Context,
  createCallerFactory,
  createUser,
  type DbHandle,
  DomainError,
  type Language,
  listUsers,
  revokeTokens,
  type Scope,
  type Site,
  scopeOf,
} from "@calendar/core";

/** The administrator that owns seeded content. It has no usable token: it exists to be the author. */
export const SEED_LOGIN = "calendar-seed";

const SEED_API_ROOT = "http://localhost/cal/events/v1";

const createCaller = createCallerFactory(appRouter);

/** What a seed writes through: the procedures (as a client would) and, for large batches, the service scopes. */
export interface Seeder {
  caller: ReturnType<typeof createCaller>;
  scope(language: Language): Scope;
}

async function seedActor(handle: DbHandle): Promise<Actor> {
  const existing = (await listUsers(handle.db)).find((user) => user.login === SEED_LOGIN);
  if (existing) return { kind: "user", id: existing.id, login: existing.login, role: "administrator" };
  const created = await createUser(handle.db, {
    login: SEED_LOGIN,
    role: "administrator",
    displayName: "Calendar seed",
  });
  await revokeTokens(handle.db, { login: SEED_LOGIN });
  return { kind: "user", id: created.id, login: created.login, role: "administrator" };
}

/** A seeder over an empty calendar (a seed never mixes with existing events: 409 otherwise). */
export async function createSeeder(handle: DbHandle, site: Site): Promise<Seeder> {
  const existing = await handle.db.event.count();
  if (existing > 0) {
    throw new DomainError(
      409,
      "seed_not_empty",
      `The database already holds ${existing} event(s), and a seed goes into an empty one: point DATABASE_URL to a new file, for example DATABASE_URL=file:./data/demo.db pnpm db:seed.`,
    );
  }
  const context: Context = {
    db: handle.db,
    provider: handle.provider,
    actor: await seedActor(handle),
    site,
    pathLanguage: null,
    apiRoot: SEED_API_ROOT,
    rest: null,
  };
  return { caller: createCaller(context), scope: (language) => scopeOf(context, language) };
}
