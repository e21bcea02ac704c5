import { afterAll, beforeAll } from "vitest";
import { type Actor, ANONYMOUS, ROLES, type Role } from "../auth/roles.ts";
import type { Db, Provider } from "../db/db.ts";
import { DomainError } from "../errors.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import type { Site } from "../trpc/context.ts";
import { createUser } from "../users/users.service.ts";
import { createTestDatabase, type TestDatabase } from "./databases.ts";

export { createTestDatabase, PROVIDERS, TEST_POSTGRES_URL, type TestDatabase } from "./databases.ts";
export * from "./expectations.ts";
export * from "./factories.ts";
export * from "./fixtures.ts";

/**
 * A fresh database for the calling test file (or `describe` block): created before its tests, dropped after.
 * Read `.current` inside tests and hooks.
 */
export function useTestDatabase(provider: Provider): { readonly current: TestDatabase } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });
  return {
    get current(): TestDatabase {
      if (!database) throw new Error("The test database is created in beforeAll; use it inside tests or hooks.");
      return database;
    },
  };
}

/** A new user of the role, as the actor of service calls. */
export async function createTestActor(db: Db, login: string, role: Role): Promise<Actor> {
  const user = await createUser(db, { login, role });
  return { kind: "user", id: user.id, login: user.login, role };
}

/** The anonymous reader and an actor of each of the roles `R`, by role. */
export type TestActors<R extends Role> = { anonymous: Actor } & Record<R, Actor>;

/**
 * The anonymous reader and a new user of each role, named `<prefix>-<role>`, created one after the other so that
 * their ids are the same on every run.
 */
export async function createTestActors<R extends Role>(
  db: Db,
  prefix: string,
  roles: readonly R[],
): Promise<TestActors<R>> {
  const byRole = {} as Record<R, Actor>;
  for (const role of roles) byRole[role] = await createTestActor(db, `${prefix}-${role}`, role);
  return { anonymous: ANONYMOUS, ...byRole };
}

/** What a service receives for a request by `actor` in `language` (a UTC site under a test API root). */
export function testScope(
  database: TestDatabase,
  actor: Actor,
  language: Language = "en",
  site: Site = { timezone: "UTC" },
): Scope {
  const { db, provider } = database.handle;
  return {
    db,
    provider,
    actor,
    language,
    links: { apiRoot: "http://calendar.test/cal/events/v1" },
    site,
  };
}

export interface TestUser {
  id: number;
  login: string;
  role: Role;
  token: string;
}

/** One user per role (`<role>1`, `<role>2`, …), each with a token. */
export async function createUsersByRole(db: Db, suffix = "1"): Promise<Record<Role, TestUser>> {
  const entries = await Promise.all(
    ROLES.map(async (role) => {
      const issued = await createUser(db, { login: `${role}${suffix}`, role });
      return [role, { id: issued.id, login: issued.login, role, token: issued.token }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<Role, TestUser>;
}

/** What a service call gave, as text to compare: its result as JSON, or a domain error's status, code and details. */
export async function outcomeOf(work: () => Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await work());
  } catch (error) {
    if (error instanceof DomainError)
      return `${error.status} ${error.code} ${error.message} ${JSON.stringify(error.extra)}`;
    throw error;
  }
}
