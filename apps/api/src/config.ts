import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_IMPORT_CAPS, DEFAULT_SERIES_LIMITS, type ImportCaps, type SeriesLimits } from "@calendar/core";
import { IANAZone } from "luxon";
import { z } from "zod";
import { DEFAULT_IPV6_CLIENT_PREFIX } from "./client-address.ts";
import { parseTrustedProxies, type TrustedProxies } from "./trusted-proxies.ts";

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(min).max(max));

/** Every setting of the server, read from the environment and validated at start. */
export const configSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgresql:// (PostgreSQL)")
    .default("file:./data/calendar.db"),
  CALENDAR_SQLITE_SYNCHRONOUS: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["full", "normal"]))
    .default("full"),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  PORT: integer(0, 65_535).default(3000),
  CALENDAR_ADMIN_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  CALENDAR_TIMEZONE: z
    .string()
    .trim()
    .refine((zone) => IANAZone.isValidZone(zone), "must be an IANA time zone such as Europe/Berlin")
    .default("UTC"),
  CALENDAR_BODY_LIMIT: integer(1, 100 * 1024 * 1024).default(1024 * 1024),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CALENDAR_CORS_ORIGINS: z
    .string()
    .transform((text) =>
      text
        .split(",")
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.literal("*"), z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)])))
    .default([]),
  CALENDAR_RATE_LIMIT: integer(0, 1_000_000).default(0),
  CALENDAR_AUTH_FAILURE_LIMIT: integer(0, 1_000_000).default(10),
  CALENDAR_AUTH_FAILURE_IPV6_PREFIX: integer(16, 128).default(DEFAULT_IPV6_CLIENT_PREFIX),
  CALENDAR_PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .transform((url) => new URL(url).origin)
    .optional(),
  CALENDAR_SITE_URL: z
    .url({ protocol: /^https?$/ })
    .transform((url) => url.replace(/\/+$/, ""))
    .optional(),
  CALENDAR_CACHE_MAX_AGE: integer(0, 31_536_000).default(0),
  CALENDAR_CACHE_MB: integer(0, 4_096).default(32),
  CALENDAR_REQUEST_TIMEOUT: integer(1_000, 600_000).default(30_000),
  CALENDAR_SHUTDOWN_TIMEOUT: integer(0, 600_000).default(10_000),
  CALENDAR_CHANGES_RETENTION_DAYS: integer(1, 3_650).default(30),
  CALENDAR_SITE_NAME: z.string().trim().min(1).max(200).default("Calendar"),
  CALENDAR_ICAL_MAX_EVENTS: integer(1, 50_000).default(2_000),
  CALENDAR_IMPORT_BODY_LIMIT: integer(1, 100 * 1024 * 1024).default(10 * 1024 * 1024),
  CALENDAR_IMPORT_MAX_EVENTS: integer(1, 100_000).default(DEFAULT_IMPORT_CAPS.eventsPerFile),
  CALENDAR_IMPORT_MAX_SERIES: integer(1, 10_000).default(DEFAULT_IMPORT_CAPS.seriesPerFile),
  CALENDAR_SERIES_HORIZON_MONTHS: integer(1, 120).default(DEFAULT_SERIES_LIMITS.horizonMonths),
  CALENDAR_SERIES_MAX_OCCURRENCES: integer(1, 10_000).default(DEFAULT_SERIES_LIMITS.maxOccurrences),
  CALENDAR_SERIES_OCCURRENCES_PER_HOUR: integer(0, 10_000_000).default(5_000),
  CALENDAR_WEBHOOKS_ALLOW_INSECURE: z
    .enum(["true", "false", "1", "0"])
    .transform((value) => value === "true" || value === "1")
    .default(false),
  CALENDAR_WEBHOOKS_PORTS: z
    .string()
    .transform((text) =>
      text
        .split(",")
        .map((port) => port.trim())
        .filter(Boolean),
    )
    .pipe(z.array(integer(1, 65_535)))
    .default([]),
  CALENDAR_WEBHOOKS_POLL_MS: integer(10, 600_000).default(1_000),
  CALENDAR_WEBHOOKS_TIMEOUT_MS: integer(100, 600_000).default(10_000),
  CALENDAR_WEBHOOKS_RETRY_BASE_MS: integer(10, 3_600_000).default(5_000),
  CALENDAR_WEBHOOKS_RETRY_SECONDS: integer(1, 30 * 86_400).default(86_400),
  CALENDAR_WEBHOOKS_DISABLE_AFTER_SECONDS: integer(1, 365 * 86_400).default(3 * 86_400),
  TRUST_PROXY: z
    .string()
    .transform((text, context): TrustedProxies => {
      const trusted = parseTrustedProxies(text);
      if (trusted !== undefined) return trusted;
      context.addIssue({
        code: "custom",
        message: "must be false, true (one proxy hop), a hop count up to 10, or proxy addresses and CIDR ranges",
      });
      return z.NEVER;
    })
    .default(false),
});

export type Config = z.infer<typeof configSchema>;

/** What one iCalendar import may write, for the server and the command line alike. */
export function importCapsOf(config: Config): ImportCaps {
  return { eventsPerFile: config.CALENDAR_IMPORT_MAX_EVENTS, seriesPerFile: config.CALENDAR_IMPORT_MAX_SERIES };
}

/** How far series reach: the horizon of rules without an end and the most occurrences of one series. */
export function seriesLimitsOf(config: Config): SeriesLimits {
  return {
    horizonMonths: config.CALENDAR_SERIES_HORIZON_MONTHS,
    maxOccurrences: config.CALENDAR_SERIES_MAX_OCCURRENCES,
  };
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * The repository root (the directory with `pnpm-workspace.yaml` above this module, in the sources and in the
 * build alike): the one base of `.env` and of relative SQLite paths, wherever the server or the CLI is started from.
 */
function findRepositoryRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, "pnpm-workspace.yaml"))) {
    const parent = dirname(directory);
    if (parent === directory) return process.cwd();
    directory = parent;
  }
  return directory;
}

export const REPOSITORY_ROOT = findRepositoryRoot();

/** A relative SQLite path is relative to `base` (the repository root). */
function absoluteDatabaseUrl(url: string, base: string): string {
  if (!url.startsWith("file:")) return url;
  const path = url.slice("file:".length);
  return isAbsolute(path) ? url : `file:${resolve(base, path)}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, base = REPOSITORY_ROOT): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, DATABASE_URL: absoluteDatabaseUrl(result.data.DATABASE_URL, base) };
}

/** Loads the repository root's `.env`, if there is one (variables already set win). */
export function loadDotEnv(base = REPOSITORY_ROOT): void {
  const file = join(base, ".env");
  if (existsSync(file)) process.loadEnvFile(file);
}
