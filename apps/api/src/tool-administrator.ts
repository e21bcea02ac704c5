import { type Actor, createUser, type DbHandle, listUsers, revokeTokens } from "@calendar/core";

/**
 * The administrator a command-line tool writes as (the seed, the import): made on first use, with no usable token,
 * so it exists only to be the author of what the tool writes.
 */
export async function toolAdministrator(handle: DbHandle, login: string, displayName: string): Promise<Actor> {
  const existing = (await listUsers(handle.db)).find((user) => user.login === login);
  if (existing) return { kind: "user", id: existing.id, login: existing.login, role: "administrator" };
  const created = await createUser(handle.db, { login, role: "administrator", displayName });
  await revokeTokens(handle.db, { login });
  return { kind: "user", id: created.id, login: created.login, role: "administrator" };
}
