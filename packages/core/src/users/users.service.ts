import { type Actor, type Role, roleSchema } from "../auth/roles.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import { advanceChangeVersion } from "../changes/change-version.ts";
import type { Db, Tx } from "../db/db.ts";
import { type DomainError, domainError, parseOrThrow, unauthorized } from "../errors.ts";
import { tokenOwner, touchToken, unchangedEnvironmentToken } from "./token.driver.ts";
import {
  type CreateTokenInput,
  type CreateUserInput,
  createTokenInput,
  createUserInput,
  ENVIRONMENT_TOKEN_NAME,
} from "./users.schemas.ts";

export interface IssuedToken {
  id: number;
  login: string;
  role: string;
  token: string;
}

function userNotFound(login: string): DomainError {
  return domainError("user_not_found", { login });
}

/** Creates a user and its first token (returned once, stored hashed), in one transaction. */
export async function createUser(db: Db, input: CreateUserInput): Promise<IssuedToken> {
  const data = parseOrThrow(createUserInput, input);
  const token = generateToken();
  return db.$transaction(async (tx) => {
    if (await tx.user.findUnique({ where: { login: data.login } })) {
      throw domainError("user_exists", { login: data.login });
    }
    const user = await tx.user.create({
      data: {
        login: data.login,
        role: data.role,
        displayName: data.displayName ?? data.login,
        email: data.email ?? "",
        tokens: { create: { name: "initial", tokenHash: hashToken(token) } },
      },
    });
    return { id: user.id, login: user.login, role: user.role, token };
  });
}

export async function listUsers(db: Db) {
  const users = await db.user.findMany({
    orderBy: { id: "asc" },
    include: { tokens: { where: { revokedAt: null }, select: { id: true } } },
  });
  return users.map(({ tokens, ...user }) => ({
    id: user.id,
    login: user.login,
    role: user.role,
    displayName: user.displayName,
    email: user.email,
    activeTokens: tokens.length,
  }));
}

/** Issues another token for an existing user. */
export async function createToken(db: Db, input: CreateTokenInput): Promise<IssuedToken & { tokenId: number }> {
  const data = parseOrThrow(createTokenInput, input);
  const user = await db.user.findUnique({ where: { login: data.login } });
  if (!user) throw userNotFound(data.login);
  const token = generateToken();
  const row = await db.apiToken.create({
    data: { userId: user.id, name: data.name ?? "", tokenHash: hashToken(token) },
  });
  return { id: user.id, login: user.login, role: user.role, token, tokenId: row.id };
}

export async function listTokens(db: Db, login: string) {
  const user = await db.user.findUnique({ where: { login } });
  if (!user) throw userNotFound(login);
  return db.apiToken.findMany({
    where: { userId: user.id },
    orderBy: { id: "asc" },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

export type TokenTarget = { tokenId: number } | { login: string };

/** The active tokens one token id or a login names, with their owner's login, oldest first. */
export async function activeTokens(db: Db, target: TokenTarget) {
  const where =
    "tokenId" in target ? { id: target.tokenId, revokedAt: null } : { user: { login: target.login }, revokedAt: null };
  const rows = await db.apiToken.findMany({
    where,
    orderBy: { id: "asc" },
    select: { id: true, name: true, createdAt: true, user: { select: { login: true } } },
  });
  return rows.map((row) => ({ tokenId: row.id, login: row.user.login, name: row.name, createdAt: row.createdAt }));
}

/** Revokes one token by id, or every token of a login. Returns how many were revoked. */
export async function revokeTokens(db: Db, target: TokenTarget): Promise<number> {
  const where =
    "tokenId" in target ? { id: target.tokenId, revokedAt: null } : { user: { login: target.login }, revokedAt: null };
  const { count } = await db.apiToken.updateMany({ where, data: { revokedAt: new Date() } });
  if (count === 0) {
    throw domainError("token_not_found");
  }
  return count;
}

/** Changes a user's role; returns the role it had. */
export async function setUserRole(db: Db, login: string, role: Role): Promise<{ previous: string }> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { login } });
    if (!user) throw userNotFound(login);
    if (user.role === "administrator" && role !== "administrator") await requireAnotherAdministrator(tx, user.id);
    await tx.user.update({ where: { id: user.id }, data: { role } });
    // What the user's tokens may read changed.
    await advanceChangeVersion(tx);
    return { previous: user.role };
  });
}

async function requireAnotherAdministrator(tx: Tx, userId: number): Promise<void> {
  const others = await tx.user.count({ where: { role: "administrator", id: { not: userId } } });
  if (others === 0) {
    throw domainError("last_administrator");
  }
}

/**
 * Deletes a user and its tokens, in one transaction. Its events, venues and organizers go to the administrator
 * `reassignTo`; without one, a user who owns any is refused (nothing is deleted).
 */
export async function deleteUser(
  db: Db,
  login: string,
  reassignTo?: string,
): Promise<{ events: number; venues: number; organizers: number }> {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { login } });
    if (!user) throw userNotFound(login);
    if (user.role === "administrator") await requireAnotherAdministrator(tx, user.id);
    const owned = { authorId: user.id };
    const counts = {
      events: await tx.event.count({ where: owned }),
      venues: await tx.venue.count({ where: owned }),
      organizers: await tx.organizer.count({ where: owned }),
    };
    const total = counts.events + counts.venues + counts.organizers;
    if (reassignTo === undefined) {
      if (total > 0) {
        throw domainError("user_owns_content", { login, ...counts });
      }
    } else {
      const heir = await tx.user.findUnique({ where: { login: reassignTo } });
      if (!heir) throw userNotFound(reassignTo);
      if (heir.role !== "administrator" || heir.id === user.id) {
        throw domainError("cli_usage", {
          reason: `--reassign must name another administrator; "${reassignTo}" is not.`,
        });
      }
      const data = { authorId: heir.id };
      await tx.event.updateMany({ where: owned, data });
      await tx.venue.updateMany({ where: owned, data });
      await tx.organizer.updateMany({ where: owned, data });
    }
    await tx.user.delete({ where: { id: user.id } });
    // Its tokens stop reading, and reassigned records name another author.
    await advanceChangeVersion(tx);
    return counts;
  });
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The actor behind a token (and, for HTTP Basic, the login it was sent with). A wrong, revoked or mismatched
 * token is the same 401, so a failure does not reveal whether a login exists.
 */
export async function authenticateToken(db: Db, token: string, login?: string): Promise<Actor> {
  const owner = await tokenOwner(db, hashToken(token));
  if (!owner || owner.revoked || (login !== undefined && owner.login !== login)) {
    throw unauthorized();
  }
  const now = Date.now();
  if (!owner.lastUsedAt || now - owner.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await touchToken(db, owner.tokenId, new Date(now));
  }
  return { kind: "user", id: owner.userId, login: owner.login, role: roleSchema.parse(owner.role) };
}

/** What became of the environment's token at start: in use, refused because it was revoked, or none set. */
export type EnvironmentTokenState = "active" | "revoked" | "unset";

/**
 * Applies `CALENDAR_ADMIN_TOKEN` at start. The environment keeps exactly the token it sets: an administrator
 * `admin` authenticates with it, and every token it set before is revoked (none is kept when it sets none).
 * A revoked token is never revived: one revoked with the CLI stays revoked at every start until the setting names
 * another token. Idempotent; safe when several instances start together. A start that finds everything as the
 * setting wants it only reads (and leaves the change version alone).
 */
export async function ensureAdmin(db: Db, token: string | undefined): Promise<EnvironmentTokenState> {
  const tokenHash = token === undefined ? undefined : hashToken(token);
  const unchanged = await unchangedEnvironmentToken(db, tokenHash);
  if (unchanged) return unchanged;
  return db.$transaction(async (tx) => {
    await tx.apiToken.updateMany({
      where: { name: ENVIRONMENT_TOKEN_NAME, revokedAt: null, ...(tokenHash ? { tokenHash: { not: tokenHash } } : {}) },
      data: { revokedAt: new Date() },
    });
    const state = tokenHash === undefined ? "unset" : await keepEnvironmentToken(tx, tokenHash);
    // Its role may have changed, and with it what its token may read; and earlier tokens stopped reading.
    await advanceChangeVersion(tx);
    return state;
  });
}

async function keepEnvironmentToken(tx: Tx, tokenHash: string): Promise<EnvironmentTokenState> {
  const existing = await tx.apiToken.findUnique({ where: { tokenHash } });
  if (existing?.revokedAt) return "revoked";
  const admin = await tx.user.upsert({
    where: { login: "admin" },
    create: { login: "admin", displayName: "Administrator", role: "administrator" },
    update: { role: "administrator" },
  });
  const owned = { userId: admin.id, name: ENVIRONMENT_TOKEN_NAME };
  if (existing) await tx.apiToken.update({ where: { id: existing.id }, data: owned });
  else await tx.apiToken.create({ data: { ...owned, tokenHash } });
  return "active";
}
