import { type Db, readerOf } from "../db/db.ts";
import { flagOf, instantOf, instantParam, type JsonSql, perProvider } from "../db/json-sql.ts";
import { ENVIRONMENT_TOKEN_NAME } from "./users.schemas.ts";
import type { EnvironmentTokenState } from "./users.service.ts";

/**
 * The token reads and the one bookkeeping write that every start and every authenticated request make, run on the
 * driver (`readerOf`) so that Prisma's query compiler is not loaded for them.
 */

function environmentStatement({ object, param, text }: JsonSql): string {
  return `SELECT ${text(
    object([
      [
        "stale",
        `EXISTS (SELECT 1 FROM "ApiToken" WHERE "name" = "wanted"."name" AND "revokedAt" IS NULL
          AND "tokenHash" <> "wanted"."hash")`,
      ],
      ["found", `"token"."id" IS NOT NULL`],
      ["revoked", `"token"."revokedAt" IS NOT NULL`],
      ["kept", `"token"."name" = "wanted"."name" AND "owner"."login" = 'admin' AND "owner"."role" = 'administrator'`],
    ]),
  )}
    FROM (SELECT CAST(${param(1)} AS TEXT) AS "name", CAST(${param(2)} AS TEXT) AS "hash") AS "wanted"
    LEFT JOIN "ApiToken" AS "token" ON "token"."tokenHash" = "wanted"."hash"
    LEFT JOIN "User" AS "owner" ON "owner"."id" = "token"."userId"`;
}

const ENVIRONMENT_SQL = perProvider(environmentStatement);

type Flag = boolean | number | null;

/**
 * What `CALENDAR_ADMIN_TOKEN` (as its hash, or undefined when unset) would leave at start when nothing needs
 * writing: no other token of the environment is active, and its token is revoked, or active and the administrator
 * `admin`'s. Undefined when something must be written.
 */
export async function unchangedEnvironmentToken(
  db: Db,
  tokenHash: string | undefined,
): Promise<EnvironmentTokenState | undefined> {
  const reader = readerOf(db);
  // No token has the hash "": none is wanted.
  const text = await reader.json(ENVIRONMENT_SQL[reader.provider], [ENVIRONMENT_TOKEN_NAME, tokenHash ?? ""]);
  const state = JSON.parse(text ?? "{}") as { stale: Flag; found: Flag; revoked: Flag; kept: Flag };
  if (flagOf(state.stale)) return undefined;
  if (tokenHash === undefined) return "unset";
  if (flagOf(state.revoked)) return "revoked";
  return flagOf(state.found) && flagOf(state.kept) ? "active" : undefined;
}

function ownerStatement({ object, param, text }: JsonSql): string {
  return `SELECT ${text(
    object([
      ["id", `"token"."id"`],
      ["revoked", `"token"."revokedAt" IS NOT NULL`],
      ["lastUsedAt", `"token"."lastUsedAt"`],
      ["userId", `"owner"."id"`],
      ["login", `"owner"."login"`],
      ["role", `"owner"."role"`],
    ]),
  )} FROM "ApiToken" AS "token" JOIN "User" AS "owner" ON "owner"."id" = "token"."userId"
    WHERE "token"."tokenHash" = ${param(1)}`;
}

const OWNER_SQL = perProvider(ownerStatement);

export interface TokenOwner {
  tokenId: number;
  revoked: boolean;
  lastUsedAt: Date | null;
  userId: number;
  login: string;
  role: string;
}

/** The token with this hash and its owner, or null when none has it. */
export async function tokenOwner(db: Db, tokenHash: string): Promise<TokenOwner | null> {
  const reader = readerOf(db);
  const text = await reader.json(OWNER_SQL[reader.provider], [tokenHash]);
  if (text === null) return null;
  const row = JSON.parse(text) as {
    id: number;
    revoked: Flag;
    lastUsedAt: string | null;
    userId: number;
    login: string;
    role: string;
  };
  return {
    tokenId: row.id,
    revoked: flagOf(row.revoked),
    lastUsedAt: row.lastUsedAt === null ? null : instantOf(row.lastUsedAt),
    userId: row.userId,
    login: row.login,
    role: row.role,
  };
}

const TOUCH_SQL = perProvider(
  ({ param }) => `UPDATE "ApiToken" SET "lastUsedAt" = ${param(1)} WHERE "id" = ${param(2)}`,
);

/**
 * Records when a token was last used. It is bookkeeping: while another request holds SQLite's write lock, it is
 * left to a later use rather than waited for.
 */
export async function touchToken(db: Db, tokenId: number, at: Date): Promise<void> {
  const reader = readerOf(db);
  await reader.tryExecute(TOUCH_SQL[reader.provider], [instantParam(reader.provider, at), tokenId]);
}
