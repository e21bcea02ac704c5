import {
  createDb,
  createToken,
  createUser,
  type DbHandle,
  DomainError,
  listTokens,
  listUsers,
  ROLES,
  recountTermEvents,
  revokeTokens,
  roleSchema,
} from "@calendar/core";
import { migrateDatabase } from "@calendar/migrate";
import { Command, InvalidArgumentError, Option } from "commander";
import { type Config, loadConfig } from "../config.ts";
import { seedBenchmarkCalendar } from "../seed/benchmark-calendar.ts";
import { seedDemoCalendar } from "../seed/demo-calendar.ts";
import { createSeeder } from "../seed/seeder.ts";
import { progressBar } from "./progress.ts";

/** Where the CLI writes; tests capture it. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

async function withDatabase<T>(config: Config, work: (handle: DbHandle) => Promise<T>): Promise<T> {
  await migrateDatabase(config.DATABASE_URL);
  const handle = await createDb(config.DATABASE_URL);
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError("Must be a positive whole number.");
  return Number(value);
}

function roleArgument(value: string): string {
  if (!roleSchema.safeParse(value).success) throw new InvalidArgumentError(`Must be one of ${ROLES.join(", ")}.`);
  return value;
}

function table(rows: Array<Record<string, unknown>>): string {
  if (rows.length === 0) return "(none)";
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value ?? ""));
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) => values.map((value, index) => value.padEnd(widths[index] ?? 0)).join("  ");
  return [line(columns), ...rows.map((row) => line(columns.map((column) => cell(row[column]))))].join("\n");
}

/** The `calendar` command line: users, tokens and the database, against `DATABASE_URL`. */
export function createProgram(output: CliOutput, env: NodeJS.ProcessEnv = process.env): Command {
  const config = () => loadConfig(env);
  const program = new Command("calendar")
    .description("Manage the Calendar service: users, API tokens and the database (uses DATABASE_URL).")
    .configureOutput({ writeOut: output.out, writeErr: output.err })
    .exitOverride();

  const users = program.command("users").description("Users and their roles.");
  users
    .command("create")
    .description("Create a user and print its first API token (shown once).")
    .requiredOption("--login <login>", "login name")
    .addOption(new Option("--role <role>", `role: ${ROLES.join(", ")}`).argParser(roleArgument).makeOptionMandatory())
    .option("--display-name <name>", "display name (default: the login)")
    .option("--email <email>", "e-mail address")
    .option("--json", "print one JSON object {id, login, role, token}")
    .action(async (options: { login: string; role: string; displayName?: string; email?: string; json?: boolean }) => {
      const issued = await withDatabase(config(), ({ db }) =>
        createUser(db, {
          login: options.login,
          role: roleSchema.parse(options.role),
          ...(options.displayName ? { displayName: options.displayName } : {}),
          ...(options.email ? { email: options.email } : {}),
        }),
      );
      output.out(
        options.json
          ? `${JSON.stringify(issued)}\n`
          : `Created ${issued.role} "${issued.login}" (id ${issued.id}).\nToken (shown once, keep it safe): ${issued.token}\n`,
      );
    });
  users
    .command("list")
    .description("List users.")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const rows = await withDatabase(config(), ({ db }) => listUsers(db));
      output.out(options.json ? `${JSON.stringify(rows)}\n` : `${table(rows)}\n`);
    });

  const tokens = program.command("tokens").description("API tokens.");
  tokens
    .command("create")
    .description("Issue another token for a user (shown once).")
    .requiredOption("--login <login>", "the user's login")
    .option("--name <name>", "a label for the token")
    .option("--json", "print one JSON object {id, login, role, token, tokenId}")
    .action(async (options: { login: string; name?: string; json?: boolean }) => {
      const issued = await withDatabase(config(), ({ db }) =>
        createToken(db, { login: options.login, ...(options.name ? { name: options.name } : {}) }),
      );
      output.out(
        options.json
          ? `${JSON.stringify(issued)}\n`
          : `Token ${issued.tokenId} for "${issued.login}" (shown once, keep it safe): ${issued.token}\n`,
      );
    });
  tokens
    .command("list")
    .description("List a user's tokens (never the tokens themselves).")
    .requiredOption("--login <login>", "the user's login")
    .option("--json", "print JSON")
    .action(async (options: { login: string; json?: boolean }) => {
      const rows = await withDatabase(config(), ({ db }) => listTokens(db, options.login));
      output.out(options.json ? `${JSON.stringify(rows)}\n` : `${table(rows)}\n`);
    });
  tokens
    .command("revoke")
    .description("Revoke one token (--id) or every token of a user (--login).")
    .option("--id <id>", "the token's id", positiveInteger)
    .option("--login <login>", "revoke every token of this user")
    .action(async (options: { id?: number; login?: string }) => {
      if ((options.id === undefined) === (options.login === undefined)) {
        throw new DomainError(400, "cli_usage", "Give exactly one of --id or --login.");
      }
      const target = options.id !== undefined ? { tokenId: options.id } : { login: options.login ?? "" };
      const count = await withDatabase(config(), ({ db }) => revokeTokens(db, target));
      output.out(`Revoked ${count} token${count === 1 ? "" : "s"}.\n`);
    });

  const database = program.command("db").description("The database.");
  database
    .command("migrate")
    .description("Apply pending migrations (the server also does this at start).")
    .action(async () => {
      const { applied } = await migrateDatabase(config().DATABASE_URL);
      output.out(applied.length ? `Applied: ${applied.join(", ")}\n` : "The database is up to date.\n");
    });
  database
    .command("seed")
    .description(
      "Fill an empty database: a demo calendar in English, German and French, or with --events N the benchmark calendar.",
    )
    .option("--events <count>", "write the benchmark calendar with this many events (issue 7)", positiveInteger)
    .action(async (options: { events?: number }) => {
      const settings = config();
      const site = { timezone: settings.CALENDAR_TIMEZONE };
      const started = Date.now();
      const summary = await withDatabase(settings, async (handle) => {
        const seeder = await createSeeder(handle, site);
        if (options.events === undefined) return seedDemoCalendar(seeder);
        const bar = progressBar("Seeding events", options.events);
        const seeded = await seedBenchmarkCalendar(seeder, { events: options.events, onProgress: bar.update });
        bar.finish();
        return seeded;
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      output.out(
        `Seeded ${summary.events} events, ${summary.venues} venues, ${summary.organizers} organizers, ${summary.categories} categories and ${summary.tags} tags in ${seconds}s.\n`,
      );
    });
  database
    .command("recount")
    .description("Count every category's and tag's published events anew (after changing the database by hand).")
    .action(async () => {
      await withDatabase(config(), ({ db }) => recountTermEvents(db));
      output.out("Counted the events of every category and tag.\n");
    });
  return program;
}
