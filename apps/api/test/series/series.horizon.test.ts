import { extendSeriesHorizons, type SeriesLimits } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import Fastify from "fastify";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { startSeriesWorker } from "../../src/series/series.worker.ts";
import { buildServer } from "../../src/server.ts";
import { useTestServer } from "../support/server.ts";

/** Rules without an end (docs/behaviour.md, "The horizon"), with a horizon of 3 months and at most 40 occurrences. */
const LIMITS: SeriesLimits = { horizonMonths: 3, maxOccurrences: 40 };
const silent = Fastify({ logger: false }).log;

/** The weekly starts from `first` before `until`, as UTC `YYYY-MM-DD HH:MM:SS`. */
function weeklyStartsBefore(first: DateTime, until: Date): string[] {
  const starts: string[] = [];
  for (let start = first; start.toJSDate() < until; start = start.plus({ weeks: 1 })) {
    starts.push(start.toFormat("yyyy-MM-dd HH:mm:ss"));
  }
  return starts;
}

function horizonFrom(now: Date, months = LIMITS.horizonMonths): Date {
  return DateTime.fromJSDate(now, { zone: "UTC" }).plus({ months }).toJSDate();
}

describe.each(PROVIDERS)("the horizon of rules without an end (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", seriesLimits: LIMITS } });
  const as = () => server.users.administrator;
  // Half a day away from now: no start falls near a horizon measured during the test.
  const first = DateTime.utc().plus({ days: 1, hours: 12 }).startOf("minute");

  async function createWeekly(title: string) {
    const { body } = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title,
        start_date: first.toFormat("yyyy-MM-dd HH:mm:ss"),
        end_date: first.plus({ hours: 1 }).toFormat("yyyy-MM-dd HH:mm:ss"),
        recurrence: ["RRULE:FREQ=WEEKLY"],
      },
    });
    return body;
  }

  async function startsOf(seriesId: number) {
    const events = await server.db.event.findMany({
      where: { seriesId },
      orderBy: { startUtc: "asc" },
      select: { startLocal: true, originalStartLocal: true },
    });
    expect(new Set(events.map((event) => event.originalStartLocal)).size).toBe(events.length);
    return events.map((event) => event.startLocal);
  }

  it("creates the occurrences up to the horizon and none beyond, and keeps the horizon", async () => {
    const before = new Date();
    const created = await createWeekly("Open-ended");
    const after = new Date();
    const seriesId = created.series_id ?? 0;
    const expected = weeklyStartsBefore(first, horizonFrom(before));
    expect(expected).toEqual(weeklyStartsBefore(first, horizonFrom(after)));
    expect(await startsOf(seriesId)).toEqual(expected);
    const series = await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } });
    expect(series.generatedUntilUtc?.getTime()).toBeGreaterThanOrEqual(horizonFrom(before).getTime());
    expect(series.generatedUntilUtc?.getTime()).toBeLessThanOrEqual(horizonFrom(after).getTime());
  });

  it("refuses a rule that would hold more occurrences than a series may, before its horizon or in all", async () => {
    const event = {
      title: "Too many",
      start_date: first.toFormat("yyyy-MM-dd HH:mm:ss"),
      end_date: first.plus({ hours: 1 }).toFormat("yyyy-MM-dd HH:mm:ss"),
    };
    const daily = await server.fail("POST /events", 400, {
      as: as(),
      body: { ...event, recurrence: ["RRULE:FREQ=DAILY"] },
    });
    expect(daily.body.data.params).toEqual({
      recurrence: "A series holds at most 40 occurrences; this one would hold more before its horizon.",
    });
    const counted = await server.fail("POST /events", 400, {
      as: as(),
      body: { ...event, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=41"] },
    });
    expect(counted.body.data.params).toEqual({ recurrence: "RRULE: COUNT=41 is not a whole number from 1 to 40." });
  });

  it("takes no lease and extends nothing when every series reaches the horizon", async () => {
    const created = await createWeekly("Far enough");
    const now = new Date();
    await extendSeriesHorizons(server.db, now, LIMITS);
    const initial = await startsOf(created.series_id ?? 0);
    const lease = await server.db.seriesLease.findMany();
    const worker = startSeriesWorker(server.database.handle, LIMITS, { intervalMs: 3_600_000, now: () => now }, silent);
    const report = await worker.settled();
    await worker.stop();
    expect(report).toEqual({ extended: 0, created: 0, failed: [] });
    expect(await server.db.seriesLease.findMany()).toEqual(lease);
    expect(await startsOf(created.series_id ?? 0)).toEqual(initial);
  });

  it("extends a series once when the clock moves, under the lease of one of two workers", async () => {
    const created = await createWeekly("Extended");
    const seriesId = created.series_id ?? 0;
    const initial = await startsOf(seriesId);
    const later = DateTime.utc().plus({ months: 2 }).toJSDate();
    const handle = server.database.handle;
    const workers = [1, 2].map(() =>
      startSeriesWorker(handle, LIMITS, { intervalMs: 3_600_000, now: () => later }, silent),
    );
    const reports = await Promise.all(workers.map((worker) => worker.settled()));
    await Promise.all(workers.map((worker) => worker.stop()));
    const expected = weeklyStartsBefore(first, horizonFrom(later));
    expect(expected.length).toBeGreaterThan(initial.length);
    expect(reports.filter((report) => report === null)).toHaveLength(1);
    expect(reports.find((report) => report !== null)).toMatchObject({ failed: [] });
    expect(await startsOf(seriesId)).toEqual(expected);
    const series = await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } });
    expect(series.generatedUntilUtc).toEqual(horizonFrom(later));
    expect(await extendSeriesHorizons(server.db, later, LIMITS)).toEqual({ extended: 0, created: 0, failed: [] });
    const copies = await server.db.event.findMany({
      where: { seriesId, startLocal: { gt: initial.at(-1) ?? "" } },
      select: { parentId: true, slug: true, title: true, overrides: true },
    });
    expect(copies.length).toBe(expected.length - initial.length);
    for (const copy of copies) {
      expect(copy).toMatchObject({ parentId: created.id, title: "Extended", overrides: "[]" });
      expect(copy.slug).toMatch(/^extended-\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("stops a series at the most occurrences it may hold, its horizon at the first start left out", async () => {
    const created = await createWeekly("Capped");
    const seriesId = created.series_id ?? 0;
    const muchLater = DateTime.utc().plus({ years: 2 }).toJSDate();
    await extendSeriesHorizons(server.db, muchLater, LIMITS);
    const starts = await startsOf(seriesId);
    expect(starts).toEqual(weeklyStartsBefore(first, horizonFrom(muchLater)).slice(0, LIMITS.maxOccurrences));
    const series = await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } });
    expect(series.generatedUntilUtc).toEqual(first.plus({ weeks: LIMITS.maxOccurrences }).toJSDate());
  });

  it("runs from the server while it listens: a restarted server extends the horizons at start", async () => {
    const created = await createWeekly("At start");
    const seriesId = created.series_id ?? 0;
    const later = DateTime.utc().plus({ months: 1 }).toJSDate();
    const restarted = await buildServer({
      site: { timezone: "UTC", seriesLimits: LIMITS },
      bodyLimit: 1024 * 1024,
      handle: server.database.handle,
      series: { intervalMs: 3_600_000, now: () => later },
    });
    await restarted.listen({ host: "127.0.0.1", port: 0 });
    const until = horizonFrom(later);
    for (let attempt = 0; attempt < 100; attempt++) {
      const series = await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } });
      if (series.generatedUntilUtc?.getTime() === until.getTime()) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await restarted.close();
    expect(await startsOf(seriesId)).toEqual(weeklyStartsBefore(first, until));
  });
});
