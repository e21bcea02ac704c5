import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { RouterOutputs } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { NamespaceIndex } from "../src/rest/namespace-index.ts";
import type { ApiDocument } from "./rest/api-document.ts";
import type { RestErrorBody } from "./support/rest-routes.ts";
import { type TestServer, useTestServer } from "./support/server.ts";

/**
 * The README's marked examples (`<!-- example: name -->` before a fenced block), run in order against a live
 * server: shell blocks with bash and curl, TypeScript blocks imported as modules. Each has a check below.
 */

const README = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
/** The address the examples are written for; the test's server takes its place. */
const WRITTEN_FOR = "http://127.0.0.1:3000";

interface Example {
  name: string;
  language: string;
  code: string;
}

function examplesOf(markdown: string): Example[] {
  const marked = /<!-- example: ([\w-]+) -->\n```(\w+)\n([\s\S]*?)\n```/g;
  return [...markdown.matchAll(marked)].map(([, name = "", language = "", code = ""]) => ({ name, language, code }));
}

const run = promisify(execFile);

/** What a shell example printed, parsed as JSON: the answer of the request it shows, typed as that answer. */
function json<T>(output: unknown[]): T {
  return JSON.parse(String(output[0]));
}

type Check = (output: unknown[], server: TestServer) => void | Promise<void>;

/** The result each example must give; the examples run in this order. */
const CHECKS: Record<string, Check> = {
  "rest-index": (output) => {
    const index = json<NamespaceIndex>(output);
    expect(index.namespace).toBe("cal/events/v1");
    expect(Object.keys(index.routes)).toContain("/cal/events/v1/events");
  },
  "rest-document": (output) => {
    const document = json<ApiDocument>(output);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toBe("Calendar REST API");
    expect(Object.keys(document.paths ?? {})).toContain("/events");
  },
  "rest-create": (output) => {
    const event = json<RouterOutputs["events"]["create"]>(output);
    expect(event).toMatchObject({
      status: "publish",
      title: "Jazz night",
      slug: "jazz-night",
      start_date: "2030-06-01 20:00:00",
      end_date: "2030-06-01 23:00:00",
      timezone: "Europe/Rome",
      featured: true,
      venue: { venue: "Blue Note", city: "Milan" },
    });
    expect(event.categories.map((category) => category.slug)).toEqual(["concerts"]);
  },
  "rest-list": (output) => {
    const list = json<RouterOutputs["events"]["list"]>(output);
    expect(list.events.map((event) => event.title)).toEqual(["Jazz night"]);
    expect([list.total, list.total_pages]).toEqual([1, 1]);
  },
  "rest-wordpress": (output) => {
    const list = json<RouterOutputs["events"]["list"]>(output);
    expect(list.events.map((event) => event.title)).toEqual(["Jazz night"]);
    expect(new URL(list.rest_url).pathname).toBe("/wp-json/tribe/events/v1/events/");
    expect(list.events.map((event) => new URL(event.rest_url).pathname)).toEqual(["/wp-json/tribe/events/v1/events/1"]);
  },
  "rest-update": (output) => {
    expect(json<RouterOutputs["events"]["update"]>(output)).toMatchObject({
      title: "Jazz night",
      cost: "€15",
      featured: false,
    });
  },
  "rest-delete": async (output, server) => {
    expect(json<RouterOutputs["events"]["delete"]>(output)).toMatchObject({ title: "Jazz night", status: "trash" });
    await server.fail("GET /events/by-slug/{slug}", 403, { params: { slug: "jazz-night" }, as: server.users.editor });
  },
  "rest-error": (output) => {
    expect(json<RestErrorBody>(output)).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): per_page",
      data: { status: 400, params: { per_page: "per_page is not of type number." } },
    });
  },
  "rest-series": (output) => {
    const { events, total } = json<RouterOutputs["events"]["occurrences"]>(output);
    expect(total).toBe(9);
    expect(events.map((event) => [event.slug, event.start_date, event.utc_start_date])).toEqual([
      ["yoga-class", "2031-03-25 19:00:00", "2031-03-25 18:00:00"],
      ["yoga-class-2031-04-01", "2031-04-01 19:00:00", "2031-04-01 17:00:00"],
      ["yoga-class-2031-04-15", "2031-04-15 19:00:00", "2031-04-15 17:00:00"],
    ]);
    expect(events[1]?.post_parent).toBe(events[0]?.id);
    expect(events[0]?.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=TU",
      "EXDATE;TZID=Europe/Berlin:20310408T190000",
    ]);
  },
  "rest-series-this": (output) => {
    expect(json<RouterOutputs["events"]["update"]>(output)).toMatchObject({
      title: "Yoga class (guest teacher)",
      start_date: "2031-04-15 19:00:00",
      original_start_date: "2031-04-15 19:00:00",
    });
  },
  "rest-series-all": async (output, server) => {
    const first = json<RouterOutputs["events"]["update"]>(output);
    expect(first).toMatchObject({ title: "Yoga class", cost: "12€" });
    const { body } = await server.call("GET /events/{id}/occurrences", {
      params: { id: first.id },
      query: { start_date: "2031-01-01", end_date: "2031-12-31", per_page: 50 },
    });
    expect(body.events.map((event) => [event.start_date.slice(0, 10), event.title, event.cost])).toEqual(
      ["03-25", "04-01", "04-15", "04-22", "04-29", "05-06", "05-13", "05-20", "05-27"].map((day) => [
        `2031-${day}`,
        day === "04-15" ? "Yoga class (guest teacher)" : "Yoga class",
        "12€",
      ]),
    );
  },
  "rest-series-following": async (output, server) => {
    const split = json<RouterOutputs["events"]["update"]>(output);
    expect(split).toMatchObject({
      start_date: "2031-05-13 18:00:00",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU"],
    });
    const { body } = await server.call("GET /events/{id}/occurrences", {
      params: { id: split.id },
      query: { start_date: "2031-01-01", end_date: "2031-12-31" },
    });
    expect(body.events.map((event) => event.start_date)).toEqual([
      "2031-05-13 18:00:00",
      "2031-05-20 18:00:00",
      "2031-05-27 18:00:00",
    ]);
  },
  "ical-series": (output) => {
    expect(String(output[0]).trim().split(/\r?\n/)).toEqual([
      "RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20310506T170000Z",
      "EXDATE;TZID=Europe/Berlin:20310408T190000",
      "RECURRENCE-ID;TZID=Europe/Berlin:20310415T190000",
      "RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU",
    ]);
  },
  "http-etag": (output) => {
    expect(String(output[0])).toBe("304\n");
  },
  "http-if-match": async (output, server) => {
    const [written, refused] = String(output[0]).split("\n");
    expect(written).toBe("200");
    expect(JSON.parse(refused ?? "")).toEqual({
      code: "rest_precondition_failed",
      message: expect.stringMatching(/^The resource has changed since you read it/),
      data: { status: 412 },
    });
    const venue = await server.call("GET /venues/{id}", { params: { id: 1 } });
    expect(venue.body.city).toBe("Rome");
  },
  trpc: (output) => {
    expect(output).toEqual(["jazz-brunch", 1, ["Jazz brunch"]]);
  },
  "trpc-error": (output) => {
    expect(output).toEqual([404, "rest-event-not-found"]);
  },
  "rest-changes": (output) => {
    const feed = json<RouterOutputs["changes"]["list"]>(output);
    expect(feed).toEqual({
      changes: [expect.objectContaining({ type: "venue", action: "created", language: "en" })],
      next_token: expect.any(String),
      has_more: false,
    });
  },
};

const examples = examplesOf(README);

describe.each(PROVIDERS)("the README's examples (%s)", (provider) => {
  const server = useTestServer(provider);
  // TypeScript examples become modules next to the tests, so that they resolve `@calendar/client` as an app would.
  const modules = mkdtempSync(join(import.meta.dirname, ".readme-"));
  afterAll(() => rmSync(modules, { recursive: true, force: true }));

  async function runShell(code: string): Promise<unknown[]> {
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", code.replaceAll(WRITTEN_FOR, server.origin)], {
      env: { PATH: process.env.PATH ?? "", TOKEN: server.users.editor.token, LOGIN: server.users.editor.login },
    });
    return [stdout];
  }

  /** Imports a TypeScript example and returns what it logged. */
  async function runModule(name: string, code: string): Promise<unknown[]> {
    const file = join(modules, `${name}.ts`);
    writeFileSync(file, code.replaceAll(WRITTEN_FOR, server.origin));
    vi.stubEnv("TOKEN", server.users.editor.token);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(file);
      return log.mock.calls.flat();
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
  }

  it("marks every example this test checks, in the order it checks them", () => {
    expect(examples.map((example) => example.name)).toEqual(Object.keys(CHECKS));
  });

  for (const { name, language, code } of examples) {
    it(`${name}: gives the result the README shows`, async () => {
      const check = CHECKS[name];
      if (!check) throw new Error(`No check for the README example "${name}".`);
      await check(language === "ts" ? await runModule(name, code) : await runShell(code), server);
    });
  }
});
