import { readFile } from "node:fs/promises";
import {
  createDb,
  DEFAULT_HORIZON_MONTHS,
  DEFAULT_LANGUAGE,
  DEFAULT_SERIES_CAP,
  type ImportResult,
  importCalendar,
  LANGUAGES,
  type Language,
  languageSchema,
} from "@calendar/core";
import { migrateDatabase } from "@calendar/migrate";
import { type Command, InvalidArgumentError } from "commander";
import { type Config, importCapsOf, seriesLimitsOf } from "../config.ts";
import { toolAdministrator } from "../tool-administrator.ts";
import { invocationPath, readFailure } from "./invocation-path.ts";
import type { CliOutput } from "./program.ts";

/** The user imports from the command line are written as (an administrator without tokens). */
const IMPORT_LOGIN = "calendar-import";

function languageArgument(value: string): Language {
  const parsed = languageSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`Must be one of ${LANGUAGES.join(", ")}.`);
  return parsed.data;
}

function horizonArgument(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 120) {
    throw new InvalidArgumentError("Must be a whole number of months from 1 to 120.");
  }
  return Number(value);
}

function summaryOf(result: ImportResult, dryRun: boolean): string {
  const lines = [
    `${dryRun ? "Would create" : "Created"} ${result.created.length}, ${dryRun ? "would update" : "updated"} ${result.updated.length}, unchanged ${result.unchanged}, skipped ${result.skipped.length} (series: ${result.series}).`,
    ...result.skipped.map((skip) => `  skipped ${skip.uid}: ${skip.reason}`),
  ];
  return `${lines.join("\n")}\n`;
}

interface ImportOptions {
  language?: Language;
  dryRun?: boolean;
  json?: boolean;
  horizonMonths?: number;
}

/** `calendar import FILE`: `POST /import` from the command line, as the `calendar-import` administrator. */
export function registerImportCommand(program: Command, output: CliOutput, config: () => Config): void {
  program
    .command("import")
    .description("Import an iCalendar (.ics) file: create, update or trash its events (as POST /import does).")
    .argument("<file>", "the .ics file (relative to the directory the command is run in)")
    .option("--language <language>", "language of the events it creates", languageArgument)
    .option("--dry-run", "show what it would do, write nothing")
    .option(
      "--horizon-months <months>",
      `how far series are expanded (default ${DEFAULT_HORIZON_MONTHS})`,
      horizonArgument,
    )
    .option("--json", "print the result as JSON")
    .action(async (file: string, options: ImportOptions, command: Command) => {
      const settings = config();
      const path = invocationPath(file);
      const text = await readFile(path, "utf8").catch((error: unknown) =>
        command.error(`error: cannot read ${path}: ${readFailure(error)}.`),
      );
      await migrateDatabase(settings.DATABASE_URL);
      const handle = await createDb(settings.DATABASE_URL, { sqliteSynchronous: settings.CALENDAR_SQLITE_SYNCHRONOUS });
      try {
        const actor = await toolAdministrator(handle, IMPORT_LOGIN, "Calendar import");
        const result = await importCalendar(
          {
            db: handle.db,
            provider: handle.provider,
            actor,
            language: options.language ?? DEFAULT_LANGUAGE,
            links: { apiRoot: "http://localhost/cal/events/v1" },
            site: {
              timezone: settings.CALENDAR_TIMEZONE,
              importCaps: importCapsOf(settings),
              seriesLimits: seriesLimitsOf(settings),
            },
          },
          text,
          {
            dryRun: options.dryRun ?? false,
            horizonMonths: options.horizonMonths ?? DEFAULT_HORIZON_MONTHS,
            seriesCap: DEFAULT_SERIES_CAP,
            // Our own feeds' UIDs end with this host: their events are matched back to the events they came from.
            publicHost: settings.CALENDAR_PUBLIC_URL && new URL(settings.CALENDAR_PUBLIC_URL).host,
          },
        );
        output.out(options.json ? `${JSON.stringify(result)}\n` : summaryOf(result, options.dryRun ?? false));
      } finally {
        await handle.close();
      }
    });
}
