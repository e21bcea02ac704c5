/** The database kind of a URL: `file:…` is SQLite, `postgres://…`/`postgresql://…` is PostgreSQL. Throws otherwise. */
export function providerOf(url: string): "sqlite" | "postgres";

export interface MigrateDatabaseOptions {
  /** Receives one human-readable line per migration applied and a summary line. */
  log?: (line: string) => void;
  /** Another migrations folder than the repository's `prisma/<sqlite|postgres>/migrations` (tests). */
  migrationsDir?: string;
}

export interface MigrateDatabaseResult {
  /** Folder names of the migrations applied by this call, in order; empty when the database was up to date. */
  applied: string[];
}

/**
 * Applies the pending migrations of `prisma/<sqlite|postgres>/migrations` to the database at `url`, creating
 * the SQLite file (and its folder) or the PostgreSQL database if missing. Idempotent, and safe to call from
 * several processes at once on PostgreSQL. A failing migration is rolled back and rejects with an Error naming
 * the migration and the database error. Relative `file:` paths are resolved against `process.cwd()`.
 */
export function migrateDatabase(url: string, options?: MigrateDatabaseOptions): Promise<MigrateDatabaseResult>;

/** A migrations folder as the schema engine reads it (`readMigrationsList` of wasm-engine.mjs). */
export interface MigrationsList {
  migrationDirectories: { path: string }[];
}

/**
 * Whether every migration of `migrationsList` is applied to the database at `url` (an absolute `file:` path or a
 * PostgreSQL URL), read from `_prisma_migrations` without the schema engine; false for anything the engine must
 * decide (a missing table, a pending, failed or unknown migration).
 */
export function databaseIsUpToDate(url: string, migrationsList: MigrationsList): Promise<boolean>;

/**
 * Whether `migrateDatabase(url)` has work to do: false when every committed migration is applied (read without the
 * schema engine); true otherwise, and when the database cannot be read (missing or unreachable).
 */
export function needsMigrating(url: string): Promise<boolean>;

/** Absolute path of the repository's `prisma` folder. */
export const prismaDir: string;

/** Absolute path of the committed migrations of a provider. */
export function migrationsDirOf(provider: "sqlite" | "postgres"): string;
