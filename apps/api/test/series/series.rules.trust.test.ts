import { extendSeriesHorizons, type SeriesLimits } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import Fastify from "fastify";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { startSeriesWorker } from "../../src/series/series.worker.ts";
import { useTestServer } from "../support/server.ts";
import { expectNoStall } from "../support/stall.ts";

/**
 * What a low role's rules cannot do (issue 32): reach across millennia, cut a COUNT short, carry thousands of
 * repeated BY values, stack hourly occurrences at a DST change, or make the horizon worker block the server.
 */
const LIMITS: SeriesLimits = { horizonMonths: 24, maxOccurrences: 1_000 };
const WALL = "yyyy-MM-dd HH:mm:ss";
const silent = Fastify({ logger: false }).log;
const SPAN = /^RRULE: a series' occurrences start within 100 years of its first start \(by \d{4}-\d{2}-\d{2}\)/;

describe.each(PROVIDERS)("bounds of events and series' rules (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", seriesLimits: LIMITS } });
  const contributor = () => server.users.contributor;

  async function titled(title: string) {
    const { body } = await server.call("GET /events", {
      as: server.users.administrator,
      query: { search: title, start_date: "1900-01-01", end_date: "9999-12-31", status: "draft,pending,publish" },
      status: 200,
    });
    return body.events;
  }

  it("refuses an event longer than 10 years with a 400 naming end_date, and keeps one of 10 years", async () => {
    const refused = await server.fail("POST /events", 400, {
      as: contributor(),
      body: { title: "Until 9999", start_date: "2031-05-01 10:00:00", end_date: "9999-12-31 23:59:59" },
    });
    expect(refused.body.data.params).toEqual({ end_date: "An event lasts at most 10 years." });
    expect(await titled("Until 9999")).toEqual([]);
    await server.call("POST /events", {
      as: contributor(),
      status: 201,
      body: { title: "Decade", start_date: "2031-05-01", end_date: "2041-04-30", all_day: true },
    });
    const { body: created } = await server.call("POST /events", {
      as: contributor(),
      status: 201,
      body: { title: "Stretched", start_date: "2031-05-01 10:00:00", end_date: "2031-05-01 12:00:00" },
    });
    const stretched = await server.fail("POST /events/{id}", 400, {
      as: contributor(),
      params: { id: created.id },
      body: { end_date: "2045-01-01 00:00:00" },
    });
    expect(stretched.body.data.params).toEqual({ end_date: "An event lasts at most 10 years." });
  });

  it("refuses a rule whose occurrences reach more than 100 years past its first start, or past year 9999", async () => {
    const event = { title: "Millennia", start_date: "2031-05-01 10:00:00", end_date: "2031-05-01 11:00:00" };
    for (const [start, rule] of [
      ["2031-05-01 10:00:00", "RRULE:FREQ=WEEKLY;INTERVAL=1000;COUNT=400"],
      ["2031-05-01 10:00:00", "RRULE:FREQ=YEARLY;UNTIL=22000101T000000Z"],
      // COUNT=1000 weekly from 9990 would end after 9999: it was cut there silently (416 kept).
      ["9990-01-01 10:00:00", "RRULE:FREQ=WEEKLY;COUNT=1000"],
      ["9999-06-01 10:00:00", "RRULE:FREQ=MONTHLY;COUNT=12"],
    ] as const) {
      const refused = await server.fail("POST /events", 400, {
        as: contributor(),
        body: { ...event, start_date: start, end_date: start.replace("10:00", "11:00"), recurrence: [rule] },
      });
      expect(refused.body.data.params, rule).toEqual({ recurrence: expect.stringMatching(SPAN) });
    }
    const dated = await server.fail("POST /events", 400, {
      as: contributor(),
      body: { ...event, recurrence: ["RRULE:FREQ=YEARLY;COUNT=2", "RDATE;VALUE=DATE:21500501"] },
    });
    expect(dated.body.data.params).toEqual({ recurrence: expect.stringMatching(SPAN) });
    expect(await titled("Millennia")).toEqual([]);
    const century = await server.call("POST /events", {
      as: contributor(),
      status: 201,
      body: { ...event, title: "Century", recurrence: ["RRULE:FREQ=YEARLY;COUNT=101"] },
    });
    const { body } = await server.call("GET /events/{id}/occurrences", {
      as: contributor(),
      params: { id: century.body.id },
      query: { start_date: "2031-01-01", end_date: "2131-12-31", per_page: 50, page: 3 },
      status: 200,
    });
    expect(body.events.at(-1)?.start_date).toBe("2131-05-01 10:00:00");
  });

  it("refuses a rule whose INTERVAL spans millennia at once, without holding up other requests", async () => {
    // ical.js moved a weekly rule a day at a time: 7 million turns (over a second) before the span was found exceeded.
    const { answer } = await expectNoStall(server.origin, () =>
      server.fail("POST /events", 400, {
        as: contributor(),
        body: {
          title: "Far apart",
          start_date: "2031-05-01 10:00:00",
          end_date: "2031-05-01 11:00:00",
          recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=1000;COUNT=1000"],
        },
      }),
    );
    expect(answer.body.data.params).toEqual({ recurrence: expect.stringMatching(SPAN) });
  });

  it("stores a BY list in its normal form: BYDAY=MO ×6,600 is BYDAY=MO, numbers once each in order", async () => {
    const { answer } = await expectNoStall(server.origin, () =>
      server.call("POST /events", {
        as: contributor(),
        status: 201,
        body: {
          title: "Mondays",
          start_date: "2031-05-05 10:00:00",
          end_date: "2031-05-05 11:00:00",
          recurrence: [`RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=${Array(6_600).fill("MO").join(",")}`],
        },
      }),
    );
    expect(answer.body.recurrence).toEqual(["RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=MO"]);
    const monthly = await server.call("POST /events", {
      as: contributor(),
      status: 201,
      body: {
        title: "Mid-month",
        start_date: "2031-05-01 10:00:00",
        end_date: "2031-05-01 11:00:00",
        recurrence: ["RRULE:FREQ=MONTHLY;COUNT=4;BYMONTHDAY=15,+1,15,01,1"],
      },
    });
    expect(monthly.body.recurrence).toEqual(["RRULE:FREQ=MONTHLY;COUNT=4;BYMONTHDAY=1,15"]);
    const weekdays = await server.call("POST /events", {
      as: contributor(),
      status: 201,
      body: {
        title: "Weekdays",
        start_date: "2031-05-02 10:00:00",
        end_date: "2031-05-02 11:00:00",
        recurrence: ["RRULE:FREQ=MONTHLY;COUNT=4;BYDAY=SU,1MO,MO,-1FR,SU,+1MO"],
      },
    });
    expect(weekdays.body.recurrence).toEqual(["RRULE:FREQ=MONTHLY;COUNT=4;BYDAY=MO,1MO,-1FR,SU"]);
  });

  it("refuses an hourly rule with BYDAY ordinals or for an all-day series, naming recurrence", async () => {
    const body = { title: "Hourly refused", start_date: "2031-05-05 10:00:00", end_date: "2031-05-05 10:30:00" };
    const ordinal = await server.fail("POST /events", 400, {
      as: contributor(),
      body: { ...body, recurrence: ["RRULE:FREQ=HOURLY;COUNT=3;BYDAY=1MO"] },
    });
    expect(ordinal.body.data.params).toEqual({
      recurrence:
        "RRULE: BYDAY with an ordinal (1MO, -1FR) takes a MONTHLY or YEARLY rule; an HOURLY rule names weekdays.",
    });
    const allDay = await server.fail("POST /events", 400, {
      as: contributor(),
      body: { ...body, all_day: true, recurrence: ["RRULE:FREQ=HOURLY;COUNT=3"] },
    });
    expect(allDay.body.data.params).toEqual({
      recurrence: "RRULE: FREQ=HOURLY: an all-day series repeats whole days.",
    });
  });

  it("steps an hourly rule in elapsed time across both DST changes: one occurrence an hour, local time from UTC", async () => {
    const expectations = [
      {
        start: "2031-03-30 00:30:00",
        local: ["2031-03-30 00:30:00", "2031-03-30 01:30:00", "2031-03-30 03:30:00", "2031-03-30 04:30:00"],
        utc: ["2031-03-29 23:30:00", "2031-03-30 00:30:00", "2031-03-30 01:30:00", "2031-03-30 02:30:00"],
      },
      {
        start: "2031-10-26 01:30:00",
        local: ["2031-10-26 01:30:00", "2031-10-26 02:30:00", "2031-10-26 02:30:00", "2031-10-26 03:30:00"],
        utc: ["2031-10-25 23:30:00", "2031-10-26 00:30:00", "2031-10-26 01:30:00", "2031-10-26 02:30:00"],
      },
    ];
    for (const { start, local, utc } of expectations) {
      const { body: first } = await server.call("POST /events", {
        as: contributor(),
        status: 201,
        body: {
          title: `Hourly ${start}`,
          timezone: "Europe/Berlin",
          start_date: start,
          end_date: start.replace(":30:00", ":45:00"),
          recurrence: ["RRULE:FREQ=HOURLY;COUNT=4"],
        },
      });
      const { body } = await server.call("GET /events/{id}/occurrences", {
        as: contributor(),
        params: { id: first.id },
        query: { start_date: "2031-01-01", end_date: "2031-12-31" },
        status: 200,
      });
      expect(body.events.map((event) => event.start_date)).toEqual(local);
      expect(body.events.map((event) => event.utc_start_date)).toEqual(utc);

      // A new rule keeps both occurrences of the repeated hour and adds the fifth.
      await server.call("POST /events/{id}", {
        as: contributor(),
        params: { id: first.id },
        body: { recurrence_scope: "all", recurrence: ["RRULE:FREQ=HOURLY;COUNT=5"] },
      });
      const { body: regenerated } = await server.call("GET /events/{id}/occurrences", {
        as: contributor(),
        params: { id: first.id },
        query: { start_date: "2031-01-01", end_date: "2031-12-31" },
        status: 200,
      });
      const kept = regenerated.events.map((event) => event.utc_start_date);
      expect(kept.slice(0, 4)).toEqual(utc);
      expect(kept).toHaveLength(5);
      expect(regenerated.events.slice(0, 4).map((event) => event.id)).toEqual(body.events.map((event) => event.id));
    }
  });
});

describe.each(PROVIDERS)("the horizon worker (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC", seriesLimits: LIMITS } });
  const first = DateTime.utc().plus({ days: 2 }).startOf("hour");

  async function openEnded(title: string, rule: string, as = server.users.contributor) {
    const { body } = await server.call("POST /events", {
      as,
      status: 201,
      body: {
        title,
        start_date: first.toFormat(WALL),
        end_date: first.plus({ minutes: 30 }).toFormat(WALL),
        recurrence: [`RRULE:${rule}`],
      },
    });
    return body.series_id ?? 0;
  }

  function runWorker(now: Date) {
    const worker = startSeriesWorker(server.database.handle, LIMITS, { intervalMs: 3_600_000, now: () => now }, silent);
    return worker.settled().finally(() => worker.stop());
  }

  it("extends sparse hourly series from where they stopped, without blocking the server", async () => {
    const ids: number[] = [];
    for (let index = 0; index < 8; index++) {
      ids.push(await openEnded(`New year ${index}`, "FREQ=HOURLY;BYMONTH=1;BYMONTHDAY=1"));
    }
    const before = await server.db.event.count({ where: { seriesId: { in: ids } } });
    const later = DateTime.utc().plus({ days: 1 }).toJSDate();
    const { answer } = await expectNoStall(server.origin, () => runWorker(later));
    expect(answer).toMatchObject({ extended: ids.length, failed: [] });
    const horizon = DateTime.fromJSDate(later, { zone: "UTC" }).plus({ months: LIMITS.horizonMonths });
    const series = await server.db.eventSeries.findMany({ where: { id: { in: ids } } });
    expect(series.map((row) => row.generatedUntilUtc)).toEqual(ids.map(() => horizon.toJSDate()));
    // Every 1 January hour up to the horizon, whatever the day of the run: what a fresh expansion gives.
    const starts = await server.db.event.findMany({
      where: { seriesId: ids[0] },
      orderBy: { startUtc: "asc" },
      select: { startLocal: true },
    });
    const expected: string[] = [];
    for (let hour = first; hour < horizon; hour = hour.plus({ hours: 1 })) {
      if (hour.equals(first) || (hour.month === 1 && hour.day === 1)) expected.push(hour.toFormat(WALL));
    }
    expect(starts.map((event) => event.startLocal)).toEqual(expected);
    expect(await server.db.event.count({ where: { seriesId: { in: ids } } })).toBe(before + (answer?.created ?? 0));
  }, 120_000);

  it("gives the same occurrences extended run by run as expanded at once", async () => {
    const rule = "FREQ=MONTHLY;BYDAY=-1FR,2MO";
    const stepwise = await openEnded("Stepwise", rule);
    let now = DateTime.utc();
    for (let run = 0; run < 6; run++) {
      now = now.plus({ days: 45 });
      await extendSeriesHorizons(server.db, now.toJSDate(), LIMITS);
    }
    const startsOf = async (seriesId: number) =>
      (
        await server.db.event.findMany({
          where: { seriesId },
          orderBy: { startUtc: "asc" },
          select: { startLocal: true },
        })
      ).map((event) => event.startLocal);
    const horizon = now.plus({ months: LIMITS.horizonMonths }).toJSDate();
    const { body } = await server.call("POST /events", {
      as: server.users.contributor,
      status: 201,
      body: {
        title: "At once",
        start_date: first.toFormat(WALL),
        end_date: first.plus({ minutes: 30 }).toFormat(WALL),
        recurrence: [
          `RRULE:${rule};UNTIL=${DateTime.fromJSDate(horizon).minus({ seconds: 1 }).toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`,
        ],
      },
    });
    expect(await startsOf(stepwise)).toEqual(await startsOf(body.series_id ?? 0));
  });

  it("marks a series whose rule no longer expands, skips it on later runs, and extends it again once edited", async () => {
    const seriesId = await openEnded("Stuck", "FREQ=WEEKLY", server.users.author);
    // A rule stored before today's checks, which refuse it now.
    await server.db.eventSeries.update({
      where: { id: seriesId },
      data: { recurrence: JSON.stringify(["RRULE:FREQ=YEARLY;BYMONTHDAY=15"]) },
    });
    const later = DateTime.utc().plus({ days: 8 }).toJSDate();
    expect(await extendSeriesHorizons(server.db, later, LIMITS)).toMatchObject({ failed: [seriesId] });
    const marked = await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } });
    expect(marked.horizonStopped).toMatch(/needs BYMONTH/);
    const evenLater = DateTime.utc().plus({ days: 16 }).toJSDate();
    const started = performance.now();
    expect(await extendSeriesHorizons(server.db, evenLater, LIMITS)).toEqual({ extended: 0, created: 0, failed: [] });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } })).toEqual(marked);
    const occurrence = await server.db.event.findFirstOrThrow({ where: { seriesId }, orderBy: { startUtc: "asc" } });
    await server.call("POST /events/{id}", {
      as: server.users.author,
      params: { id: occurrence.id },
      body: { recurrence: ["RRULE:FREQ=WEEKLY"], recurrence_scope: "all" },
      status: 200,
    });
    const report = await extendSeriesHorizons(server.db, evenLater, LIMITS);
    expect(report).toMatchObject({ extended: 1, failed: [] });
    expect(report.created).toBeGreaterThan(0);
    expect((await server.db.eventSeries.findUniqueOrThrow({ where: { id: seriesId } })).horizonStopped).toBeNull();
  });

  it("does not extend a series whose occurrences are all in the trash", async () => {
    const seriesId = await openEnded("Deleted", "FREQ=WEEKLY", server.users.author);
    const firstEvent = await server.db.event.findFirstOrThrow({ where: { seriesId }, orderBy: { startUtc: "asc" } });
    await server.call("DELETE /events/{id}", {
      as: server.users.author,
      params: { id: firstEvent.id },
      query: { recurrence_scope: "all" },
      status: 200,
    });
    const held = await server.db.event.findMany({ where: { seriesId }, orderBy: { id: "asc" }, select: { id: true } });
    const token = (await server.call("GET /changes", { status: 200 })).body.next_token;
    await extendSeriesHorizons(server.db, DateTime.utc().plus({ months: 2 }).toJSDate(), LIMITS);
    const now = await server.db.event.findMany({ where: { seriesId }, orderBy: { id: "asc" }, select: { id: true } });
    expect(now).toEqual(held);
    const { body } = await server.call("GET /changes", {
      as: server.users.administrator,
      query: { since: token },
      status: 200,
    });
    const ids = new Set(now.map((event) => event.id));
    expect(body.changes.filter((change) => ids.has(change.id))).toEqual([]);
  });
});
