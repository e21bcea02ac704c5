import {
  activeTokens,
  createToken,
  createUser,
  type Db,
  deleteUser,
  domainError,
  listTokens,
  listUsers,
  ROLES,
  recountTermEvents,
  revokeTokens,
  roleSchema,
  setUserRole,
  type TokenTarget,
} from "@calendar/core";
import { migrateDatabase } from "@calendar/migrate";
import { Command, InvalidArgumentError, Option } from "commander";
import { type Config, loadConfig } from "../config.ts";
import { seedBenchmarkCalendar } from "../seed/benchmark-calendar.ts";
import { seedDemoCalendar } from "../seed/demo-calendar.ts";
import { createSeeder } from "../seed/seeder.ts";
import { positiveInteger, table, withDatabase } from "./database.ts";
import { registerImportCommand } from "./import.command.ts";
import { progressBar } from "./progress.ts";
import { CLI_VERSION } from "./version.ts";
import { registerWebhooksCommand } from "./webhooks.command.ts";

/** Where the CLI writes; tests capture it. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
  /** Asks a yes/no question on a terminal; absent when nobody can answer (a pipe, a script, a test). */
  confirm?(question: string): Promise<boolean>;
}

function roleArgument(value: string): string {
  if (!roleSchema.safeParse(value).success) throw new InvalidArgumentError(`Must be one of ${ROLES.join(", ")}.`);
  return value;
}

/** The `calendar` command line: users, tokens and the database, against `DATABASE_URL`. */
export function createProgram(output: CliOutput, env: NodeJS.ProcessEnv = process.env): Command {
  const config = () => loadConfig(env);
  const program = new Command("calendar")
    .description("Manage the Calendar service: users, API tokens and the database (uses DATABASE_URL).")
    .version(CLI_VERSION, "-V, --version", "print the version")
    .configureOutput({ writeOut: output.out, writeErr: output.err })
    .exitOverride();

  registerUserCommands(program, output, config);
  registerTokenCommands(program, output, config);
  registerDatabaseCommands(program, output, config);
  registerImportCommand(program, output, config);
  registerWebhooksCommand(program, output, config);
  return program;
}

/** `calendar users create|list|set-role|delete`. */
function registerUserCommands(program: Command, output: CliOutput, config: () => Config): void {
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
      const issued = await withDatabase(config(), output, "write", ({ db }) =>
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
      const rows = await withDatabase(config(), output, "read", ({ db }) => listUsers(db));
      output.out(options.json ? `${JSON.stringify(rows)}\n` : `${table(rows)}\n`);
    });

  users
    .command("set-role")
    .description("Change a user's role.")
    .requiredOption("--login <login>", "the user's login")
    .addOption(new Option("--role <role>", `role: ${ROLES.join(", ")}`).argParser(roleArgument).makeOptionMandatory())
    .action(async (options: { login: string; role: string }) => {
      const role = roleSchema.parse(options.role);
      const { previous } = await withDatabase(config(), output, "write", ({ db }) =>
        setUserRole(db, options.login, role),
      );
      output.out(`"${options.login}" is now ${role} (was ${previous}).\n`);
    });
  users
    .command("delete")
    .description("Delete a user and its tokens; its events, venues and organizers go to --reassign.")
    .requiredOption("--login <login>", "the user's login")
    .option("--reassign <login>", "the administrator who gets the user's events, venues and organizers")
    .action(async (options: { login: string; reassign?: string }) => {
      const moved = await withDatabase(config(), output, "write", ({ db }) =>
        deleteUser(db, options.login, options.reassign),
      );
      const handedOver = options.reassign
        ? ` ${moved.events} event(s), ${moved.venues} venue(s) and ${moved.organizers} organizer(s) now belong to "${options.reassign}".`
        : "";
      output.out(`Deleted "${options.login}".${handedOver}\n`);
    });
}

/** `calendar tokens create|list|revoke`. */
function registerTokenCommands(program: Command, output: CliOutput, config: () => Config): void {
  const tokens = program.command("tokens").description("API tokens.");
  tokens
    .command("create")
    .description("Issue another token for a user (shown once).")
    .requiredOption("--login <login>", "the user's login")
    .option("--name <name>", "a label for the token")
    .option("--json", "print one JSON object {user_id, login, role, token_id, token}")
    .action(async (options: { login: string; name?: string; json?: boolean }) => {
      const issued = await withDatabase(config(), output, "write", ({ db }) =>
        createToken(db, { login: options.login, ...(options.name ? { name: options.name } : {}) }),
      );
      const printed = {
        user_id: issued.id,
        login: issued.login,
        role: issued.role,
        token_id: issued.tokenId,
        token: issued.token,
      };
      output.out(
        options.json
          ? `${JSON.stringify(printed)}\n`
          : `Token ${issued.tokenId} for "${issued.login}" (shown once, keep it safe): ${issued.token}\n`,
      );
    });
  tokens
    .command("list")
    .description("List a user's tokens (never the tokens themselves).")
    .requiredOption("--login <login>", "the user's login")
    .option("--json", "print JSON")
    .action(async (options: { login: string; json?: boolean }) => {
      const rows = await withDatabase(config(), output, "read", ({ db }) => listTokens(db, options.login));
      output.out(options.json ? `${JSON.stringify(rows)}\n` : `${table(rows)}\n`);
    });
  tokens
    .command("revoke")
    .description("Revoke one token (--token-id, as `tokens list` shows it) or every token of a user (--login).")
    .option("--token-id <id>", "the token's id (not the user's)", positiveInteger)
    .option("--login <login>", "revoke every token of this user")
    .option("--yes", "do not ask for confirmation on a terminal")
    .action(async (options: { tokenId?: number; login?: string; yes?: boolean }) => {
      if ((options.tokenId === undefined) === (options.login === undefined)) {
        throw domainError("cli_usage", { reason: "Give exactly one of --token-id or --login." });
      }
      const target = options.tokenId !== undefined ? { tokenId: options.tokenId } : { login: options.login ?? "" };
      await withDatabase(config(), output, "write", ({ db }) =>
        revokeAfterConfirmation(db, output, target, options.yes),
      );
    });
}

/** Lists the tokens a revocation would end and, on a terminal without `--yes`, asks before revoking them. */
async function revokeAfterConfirmation(db: Db, output: CliOutput, target: TokenTarget, yes: boolean | undefined) {
  const found = await activeTokens(db, target);
  if (found.length === 0) throw domainError("token_not_found");
  const listed = found.map(
    (token) =>
      `  token ${token.tokenId} of "${token.login}", ${token.name ? `"${token.name}"` : "unnamed"}, created ${token.createdAt.toISOString()}`,
  );
  if (!yes && output.confirm) {
    output.out(`To revoke:\n${listed.join("\n")}\n`);
    if (!(await output.confirm(`Revoke ${found.length === 1 ? "it" : `these ${found.length}`}?`))) {
      output.out("Nothing revoked.\n");
      return;
    }
  }
  const count = await revokeTokens(db, target);
  output.out(`Revoked ${count} token${count === 1 ? "" : "s"}:\n${listed.join("\n")}\n`);
}

/** `calendar db migrate|seed|recount`. */
function registerDatabaseCommands(program: Command, output: CliOutput, config: () => Config): void {
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
      "Fill an empty database (any with --force): a demo calendar in English, German and French, or with --events N the benchmark calendar.",
    )
    .option("--events <count>", "write the benchmark calendar with this many events (issue 7)", positiveInteger)
    .option("--force", "add the data to a calendar that already has events")
    .action(async (options: { events?: number; force?: boolean }) => {
      const settings = config();
      const site = { timezone: settings.CALENDAR_TIMEZONE };
      const started = Date.now();
      const summary = await withDatabase(settings, output, "write", async (handle) => {
        const seeder = await createSeeder(handle, site, { force: options.force });
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
      await withDatabase(config(), output, "write", ({ db }) => recountTermEvents(db));
      output.out("Counted the events of every category and tag.\n");
    });
}
