import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, REPOSITORY_ROOT } from "../src/config.ts";

describe("configuration", () => {
  it("has defaults for everything", () => {
    expect(loadConfig({}, "/srv/calendar")).toEqual({
      DATABASE_URL: "file:/srv/calendar/data/calendar.db",
      CALENDAR_SQLITE_SYNCHRONOUS: "full",
      HOST: "127.0.0.1",
      PORT: 3000,
      CALENDAR_TIMEZONE: "UTC",
      CALENDAR_BODY_LIMIT: 1_048_576,
      LOG_LEVEL: "info",
      CALENDAR_CORS_ORIGINS: [],
      CALENDAR_RATE_LIMIT: 0,
      CALENDAR_AUTH_FAILURE_LIMIT: 10,
      CALENDAR_AUTH_FAILURE_IPV6_PREFIX: 64,
      CALENDAR_CACHE_MAX_AGE: 0,
      CALENDAR_CACHE_MB: 32,
      CALENDAR_REQUEST_TIMEOUT: 30_000,
      CALENDAR_SHUTDOWN_TIMEOUT: 10_000,
      CALENDAR_CHANGES_RETENTION_DAYS: 30,
      CALENDAR_SITE_NAME: "Calendar",
      CALENDAR_ICAL_MAX_EVENTS: 2_000,
      CALENDAR_IMPORT_BODY_LIMIT: 10_485_760,
      CALENDAR_IMPORT_MAX_EVENTS: 2_000,
      CALENDAR_IMPORT_MAX_SERIES: 100,
      CALENDAR_SERIES_HORIZON_MONTHS: 24,
      CALENDAR_SERIES_MAX_OCCURRENCES: 1_000,
      CALENDAR_SERIES_OCCURRENCES_PER_HOUR: 5_000,
      CALENDAR_WEBHOOKS_ALLOW_INSECURE: false,
      CALENDAR_WEBHOOKS_PORTS: [],
      CALENDAR_WEBHOOKS_POLL_MS: 1_000,
      CALENDAR_WEBHOOKS_TIMEOUT_MS: 10_000,
      CALENDAR_WEBHOOKS_RETRY_BASE_MS: 5_000,
      CALENDAR_WEBHOOKS_RETRY_SECONDS: 86_400,
      CALENDAR_WEBHOOKS_DISABLE_AFTER_SECONDS: 259_200,
      TRUST_PROXY: false,
    });
  });

  it("reads every setting from the environment", () => {
    expect(
      loadConfig({
        DATABASE_URL: "postgresql://calendar@db:5432/calendar",
        CALENDAR_SQLITE_SYNCHRONOUS: "NORMAL",
        HOST: "0.0.0.0",
        PORT: "8080",
        CALENDAR_ADMIN_TOKEN: "a-long-enough-admin-token",
        CALENDAR_TIMEZONE: "Europe/Berlin",
        CALENDAR_BODY_LIMIT: "2048",
        LOG_LEVEL: "warn",
        CALENDAR_CORS_ORIGINS: "https://a.example, https://b.example:8443/",
        CALENDAR_RATE_LIMIT: "0",
        CALENDAR_AUTH_FAILURE_LIMIT: "5",
        CALENDAR_AUTH_FAILURE_IPV6_PREFIX: "56",
        CALENDAR_PUBLIC_URL: "https://calendar.example.org/",
        CALENDAR_SITE_URL: "https://www.example.org/news/",
        CALENDAR_CACHE_MAX_AGE: "60",
        CALENDAR_CACHE_MB: "0",
        CALENDAR_REQUEST_TIMEOUT: "5000",
        CALENDAR_SHUTDOWN_TIMEOUT: "2000",
        CALENDAR_CHANGES_RETENTION_DAYS: "7",
        CALENDAR_SITE_NAME: "Stadtkalender",
        CALENDAR_ICAL_MAX_EVENTS: "500",
        CALENDAR_IMPORT_BODY_LIMIT: "4096",
        CALENDAR_IMPORT_MAX_EVENTS: "300",
        CALENDAR_IMPORT_MAX_SERIES: "7",
        CALENDAR_SERIES_HORIZON_MONTHS: "6",
        CALENDAR_SERIES_MAX_OCCURRENCES: "200",
        CALENDAR_SERIES_OCCURRENCES_PER_HOUR: "3000",
        CALENDAR_WEBHOOKS_ALLOW_INSECURE: "true",
        CALENDAR_WEBHOOKS_PORTS: "8443, 9443",
        CALENDAR_WEBHOOKS_POLL_MS: "50",
        CALENDAR_WEBHOOKS_TIMEOUT_MS: "2000",
        CALENDAR_WEBHOOKS_RETRY_BASE_MS: "100",
        CALENDAR_WEBHOOKS_RETRY_SECONDS: "3600",
        CALENDAR_WEBHOOKS_DISABLE_AFTER_SECONDS: "7200",
        TRUST_PROXY: "true",
      }),
    ).toEqual({
      DATABASE_URL: "postgresql://calendar@db:5432/calendar",
      CALENDAR_SQLITE_SYNCHRONOUS: "normal",
      HOST: "0.0.0.0",
      PORT: 8080,
      CALENDAR_ADMIN_TOKEN: "a-long-enough-admin-token",
      CALENDAR_TIMEZONE: "Europe/Berlin",
      CALENDAR_BODY_LIMIT: 2048,
      LOG_LEVEL: "warn",
      CALENDAR_CORS_ORIGINS: ["https://a.example", "https://b.example:8443"],
      CALENDAR_RATE_LIMIT: 0,
      CALENDAR_AUTH_FAILURE_LIMIT: 5,
      CALENDAR_AUTH_FAILURE_IPV6_PREFIX: 56,
      CALENDAR_PUBLIC_URL: "https://calendar.example.org",
      CALENDAR_SITE_URL: "https://www.example.org/news",
      CALENDAR_CACHE_MAX_AGE: 60,
      CALENDAR_CACHE_MB: 0,
      CALENDAR_REQUEST_TIMEOUT: 5000,
      CALENDAR_SHUTDOWN_TIMEOUT: 2000,
      CALENDAR_CHANGES_RETENTION_DAYS: 7,
      CALENDAR_SITE_NAME: "Stadtkalender",
      CALENDAR_ICAL_MAX_EVENTS: 500,
      CALENDAR_IMPORT_BODY_LIMIT: 4096,
      CALENDAR_IMPORT_MAX_EVENTS: 300,
      CALENDAR_IMPORT_MAX_SERIES: 7,
      CALENDAR_SERIES_HORIZON_MONTHS: 6,
      CALENDAR_SERIES_MAX_OCCURRENCES: 200,
      CALENDAR_SERIES_OCCURRENCES_PER_HOUR: 3_000,
      CALENDAR_WEBHOOKS_ALLOW_INSECURE: true,
      CALENDAR_WEBHOOKS_PORTS: [8443, 9443],
      CALENDAR_WEBHOOKS_POLL_MS: 50,
      CALENDAR_WEBHOOKS_TIMEOUT_MS: 2_000,
      CALENDAR_WEBHOOKS_RETRY_BASE_MS: 100,
      CALENDAR_WEBHOOKS_RETRY_SECONDS: 3_600,
      CALENDAR_WEBHOOKS_DISABLE_AFTER_SECONDS: 7_200,
      TRUST_PROXY: 1,
    });
  });

  it("reads TRUST_PROXY as the proxy hops to trust: never all of them", () => {
    const trusted = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;
    expect([trusted("false"), trusted("0"), trusted("true"), trusted("1"), trusted("2")]).toEqual([
      false,
      false,
      1,
      1,
      2,
    ]);
    expect(trusted("127.0.0.1, ::1,10.0.0.0/8 , fd00::/8")).toEqual(["127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"]);
    for (const bad of ["yes", "11", "-1", "10.0.0.0/33", "::1/129", "nginx.internal", "10.0.0.1/8/8", ","]) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        "TRUST_PROXY: must be false, true (one proxy hop), a hop count up to 10, or proxy addresses and CIDR ranges",
      );
    }
  });

  it("resolves a relative SQLite path against the repository root, wherever the command was started", () => {
    const env = { DATABASE_URL: "file:./x/cal.db", INIT_CWD: "/home/me", TURBO_INVOCATION_DIR: "/elsewhere" };
    expect(loadConfig(env, "/srv/calendar").DATABASE_URL).toBe("file:/srv/calendar/x/cal.db");
    expect(loadConfig({ DATABASE_URL: "file:/abs/cal.db" }).DATABASE_URL).toBe("file:/abs/cal.db");
  });

  it("finds the repository root by default (the directory with pnpm-workspace.yaml)", () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");
    expect(REPOSITORY_ROOT).toBe(root);
    expect(loadConfig({}).DATABASE_URL).toBe(`file:${root}/data/calendar.db`);
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", CALENDAR_TIMEZONE: "" }).PORT).toBe(3000);
  });

  it("names every bad setting in one clear error", () => {
    const bad = {
      DATABASE_URL: "mysql://x",
      PORT: "70000",
      CALENDAR_TIMEZONE: "Mars/Olympus",
      CALENDAR_BODY_LIMIT: "1MB",
      CALENDAR_ADMIN_TOKEN: "short",
      LOG_LEVEL: "loud",
    };
    expect(() => loadConfig(bad)).toThrow(ConfigError);
    const message = (() => {
      try {
        loadConfig(bad);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message.split("\n")).toEqual([
      "Invalid configuration:",
      "  DATABASE_URL: must start with file: (SQLite) or postgresql:// (PostgreSQL)",
      "  PORT: Too big: expected number to be <=65535",
      "  CALENDAR_ADMIN_TOKEN: must be at least 16 characters",
      "  CALENDAR_TIMEZONE: must be an IANA time zone such as Europe/Berlin",
      "  CALENDAR_BODY_LIMIT: must be a whole number",
      '  LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
    ]);
  });
});
