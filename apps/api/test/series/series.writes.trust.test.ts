import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { expectNoStall } from "../support/stall.ts";

/** Issue 32, findings 4 and 9: series writes are proportional, yield, and leave no trash behind. */

const THOUSAND = {
  start_date: "2031-01-01 09:00:00",
  end_date: "2031-01-01 10:00:00",
  timezone: "Europe/Berlin",
  recurrence: ["RRULE:FREQ=DAILY;COUNT=1000"],
};

describe.each(PROVIDERS)("series writes (%s)", (provider) => {
  const server = useTestServer(provider);

  async function eventsOfSeries(seriesId: number) {
    const rows = await server.db.event.findMany({ where: { seriesId }, select: { id: true, status: true } });
    return { total: rows.length, trashed: rows.filter((row) => row.status === "trash").length };
  }

  async function linksOfSeries(seriesId: number) {
    const event = { seriesId };
    const [categories, tags] = await Promise.all([
      server.db.eventCategory.count({ where: { event } }),
      server.db.eventTag.count({ where: { event } }),
    ]);
    return categories + tags;
  }

  it("creates 1,000 occurrences and shifts them all without blocking the server", async () => {
    const as = server.users.contributor;
    const created = await expectNoStall(server.origin, () =>
      server.call("POST /events", { as, status: 201, body: { title: "Daily thousand", ...THOUSAND } }),
    );
    const seriesId = created.answer.body.series_id ?? 0;
    expect(await eventsOfSeries(seriesId)).toEqual({ total: 1000, trashed: 0 });
    const shifted = await expectNoStall(server.origin, () =>
      server.call("PATCH /events/{id}", {
        as,
        params: { id: created.answer.body.id },
        query: { recurrence_scope: "all" },
        body: { start_date: "2031-01-01 11:00:00", end_date: "2031-01-01 12:00:00" },
        status: 200,
      }),
    );
    const moved = await server.db.event.findMany({
      where: { seriesId, status: { not: "trash" } },
      select: { startLocal: true },
    });
    const figures = (report: typeof created) =>
      `${Math.round(report.requestMs)} ms (slowest poll ${Math.round(report.slowestPollMs)} ms)`;
    console.info(`${provider}: create of 1,000 ${figures(created)}, shift of all ${figures(shifted)}`);
    expect(moved).toHaveLength(1000);
    expect(new Set(moved.map((event) => event.startLocal.slice(11)))).toEqual(new Set(["11:00:00"]));
  }, 60_000);

  it("regenerates a series without growing its trash: three rule changes leave about its occurrences", async () => {
    const as = server.users.author;
    const categories = Array.from({ length: 50 }, (_, index) => `Series category ${index}`);
    const tags = Array.from({ length: 50 }, (_, index) => `series-tag-${index}`);
    // Only editors create terms by name: the author uses existing ones.
    await server.call("POST /events", {
      as: server.users.editor,
      status: 201,
      body: { title: "Terms", start_date: "2031-01-01 09:00:00", end_date: "2031-01-01 10:00:00", categories, tags },
    });
    const created = await server.call("POST /events", {
      as,
      status: 201,
      body: { title: "Rules", ...THOUSAND, categories, tags },
    });
    const seriesId = created.body.series_id ?? 0;
    for (const rule of [
      "FREQ=DAILY;INTERVAL=2;COUNT=1000",
      "FREQ=DAILY;COUNT=1000",
      "FREQ=DAILY;INTERVAL=3;COUNT=1000",
    ]) {
      await expectNoStall(server.origin, () =>
        server.call("PATCH /events/{id}", {
          as,
          params: { id: created.body.id },
          query: { recurrence_scope: "all" },
          body: { recurrence: [`RRULE:${rule}`] },
          status: 200,
        }),
      );
    }
    const events = await eventsOfSeries(seriesId);
    expect(events.total - events.trashed).toBe(1000);
    expect(events.total).toBeLessThanOrEqual(1010);
    expect(await linksOfSeries(seriesId)).toBeLessThanOrEqual(100 * events.total);
  }, 120_000);

  it("moves UNTIL with the series when only its zone changes: the last occurrence stays", async () => {
    const as = server.users.author;
    // 19:00 in Berlin on 8 April 2031 (summer time) is 17:00 UTC: the rule's last start.
    const created = await server.call("POST /events", {
      as,
      status: 201,
      body: {
        title: "Zone move",
        start_date: "2031-03-11 19:00:00",
        end_date: "2031-03-11 20:00:00",
        timezone: "Europe/Berlin",
        recurrence: ["RRULE:FREQ=WEEKLY;UNTIL=20310408T170000Z"],
      },
    });
    const seriesId = created.body.series_id ?? 0;
    const moved = await server.call("PATCH /events/{id}", {
      as,
      params: { id: created.body.id },
      query: { recurrence_scope: "all" },
      body: { timezone: "America/New_York" },
      status: 200,
    });
    // 19:00 in New York on 8 April is 23:00 UTC.
    expect(moved.body.recurrence).toEqual(["RRULE:FREQ=WEEKLY;UNTIL=20310408T230000Z"]);
    const live = await server.db.event.findMany({
      where: { seriesId, status: { not: "trash" } },
      orderBy: { startUtc: "asc" },
      select: { startLocal: true, timezone: true },
    });
    expect(live.map((event) => [event.startLocal, event.timezone])).toEqual(
      ["2031-03-11", "2031-03-18", "2031-03-25", "2031-04-01", "2031-04-08"].map((day) => [
        `${day} 19:00:00`,
        "America/New_York",
      ]),
    );
    expect(await eventsOfSeries(seriesId)).toEqual({ total: 5, trashed: 0 });
  });

  // SQLite writes one at a time by design; PostgreSQL's writers must not queue behind a series for seconds.
  it.runIf(provider === "postgres")(
    "lets an unrelated editor's write through while a series of 1,000 moves",
    async () => {
      const created = await server.call("POST /events", {
        as: server.users.contributor,
        status: 201,
        body: { title: "Busy series", ...THOUSAND },
      });
      const single = await server.call("POST /events", {
        as: server.users.editor,
        status: 201,
        body: { title: "Single", start_date: "2031-02-01 09:00:00", end_date: "2031-02-01 10:00:00" },
      });
      const shift = server.call("PATCH /events/{id}", {
        as: server.users.contributor,
        params: { id: created.body.id },
        query: { recurrence_scope: "all" },
        body: { start_date: "2031-01-01 08:00:00", end_date: "2031-01-01 09:00:00" },
        status: 200,
      });
      const shiftStarted = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      await server.call("PATCH /events/{id}", {
        as: server.users.editor,
        params: { id: single.body.id },
        body: { title: "Single (renamed)" },
        status: 200,
      });
      const editMs = performance.now() - started;
      await shift;
      const shiftMs = performance.now() - shiftStarted;
      console.info(
        `${provider}: an unrelated edit took ${Math.round(editMs)} ms beside a shift of ${Math.round(shiftMs)} ms`,
      );
      // Both advance the one change-version row, so the edit may wait for the shift's commit: never for seconds.
      expect(editMs).toBeLessThan(2_000);
    },
    60_000,
  );
});

describe.each(PROVIDERS)("the limits of series writes (%s)", (provider) => {
  const server = useTestServer(provider, { writesPerMinute: 1_500, seriesOccurrencesPerHour: 1_000 });
  const SIX_HUNDRED = { ...THOUSAND, recurrence: ["RRULE:FREQ=DAILY;COUNT=600"] };
  const EIGHT_HUNDRED = { ...THOUSAND, recurrence: ["RRULE:FREQ=DAILY;COUNT=800"] };

  async function expectNothingTitled(title: string) {
    expect(await server.db.event.count({ where: { title } })).toBe(0);
  }

  it("refuses a contributor's occurrences past the hourly quota (429), writing nothing", async () => {
    const as = server.users.contributor;
    await server.call("POST /events", { as, status: 201, body: { title: "Quota one", ...SIX_HUNDRED } });
    const fewer = { ...SIX_HUNDRED, recurrence: ["RRULE:FREQ=DAILY;COUNT=400"] };
    // A write that fails after its charge (an unknown venue) is given its charge back.
    await server.fail("POST /events", 400, { as, body: { title: "Quota bad", ...fewer, venue: [999_999] } });
    const refused = await server.fail("POST /events", 429, { as, body: { title: "Quota two", ...SIX_HUNDRED } });
    expect(refused.body).toMatchObject({ code: "rest_too_many_requests", data: { status: 429 } });
    expect(refused.body.message).toMatch(/occurrences/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectNothingTitled("Quota two");
    await server.call("POST /events", { as, status: 201, body: { title: "Quota three", ...fewer } });
    // A single event is still one write.
    await server.call("POST /events", {
      as,
      status: 201,
      body: { title: "Quota single", start_date: "2031-02-01 09:00:00", end_date: "2031-02-01 10:00:00" },
    });
  });

  it("counts each event a series write writes against the write rate limit", async () => {
    const as = server.users.editor;
    await server.call("POST /events", { as, status: 201, body: { title: "Weight one", ...EIGHT_HUNDRED } });
    const refused = await server.fail("POST /events", 429, { as, body: { title: "Weight two", ...EIGHT_HUNDRED } });
    expect(refused.body).toMatchObject({ code: "rest_too_many_requests", data: { status: 429 } });
    expect(refused.body.message).toMatch(/writes/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectNothingTitled("Weight two");
  });
});
