import { beforeAll, describe, expect, it } from "vitest";
import { runWrite } from "../db/write.ts";
import { createEvent } from "../events/event.create.service.ts";
import type { Scope } from "../scope.ts";
import { createTestActor, PROVIDERS, testScope, useTestDatabase } from "../testing/index.ts";
import { planSeries, seriesLimitsOf } from "./series.create.ts";
import { regenerateSeries } from "./series.regenerate.ts";

describe.each(PROVIDERS)("regenerating a series (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let scope: Scope;

  beforeAll(async () => {
    scope = testScope(database.current, await createTestActor(database.current.handle.db, "series-editor", "editor"));
  });

  async function occurrences(seriesId: number) {
    return scope.db.event.findMany({
      where: { seriesId },
      orderBy: { originalStartUtc: "asc" },
      select: { id: true, slug: true, status: true, startLocal: true, originalStartLocal: true },
    });
  }

  async function regenerate(
    seriesId: number,
    lines: string[],
    startLocal: string,
    endLocal: string,
    shiftSeconds: number,
  ) {
    const schedule = {
      timezone: "Europe/Berlin",
      allDay: false,
      startLocal,
      endLocal,
      startUtc: new Date(0),
      endUtc: new Date(0),
    };
    const now = new Date("2026-11-27T12:00:00Z");
    const plan = planSeries(lines, schedule, seriesLimitsOf(scope.site), now);
    return runWrite(scope.db, (tx) =>
      regenerateSeries(tx, seriesId, plan, { shiftSeconds, siteZone: scope.site.timezone, now, provider }),
    );
  }

  it("keeps the occurrences whose original start survives, deletes the others and creates the new ones", async () => {
    const first = await createEvent(scope, {
      title: "Choir",
      start_date: "2031-01-06 18:00:00",
      end_date: "2031-01-06 20:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"],
    });
    const seriesId = first.series_id ?? 0;
    const before = await occurrences(seriesId);
    const result = await regenerate(
      seriesId,
      ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3"],
      "2031-01-06 18:00:00",
      "2031-01-06 20:00:00",
      0,
    );
    const after = await occurrences(seriesId);
    expect(result.kept).toEqual([before[0]?.id, before[2]?.id]);
    // Never edited on their own: copies of the series, deleted rather than trashed.
    expect(result.deleted).toEqual([before[1]?.id, before[3]?.id]);
    expect(result.trashed).toEqual([]);
    expect(result.created).toHaveLength(1);
    expect(
      after.filter((event) => event.status !== "trash").map((event) => [event.originalStartLocal, event.slug]),
    ).toEqual([
      ["2031-01-06 18:00:00", "choir"],
      ["2031-01-20 18:00:00", "choir-2031-01-20"],
      ["2031-02-03 18:00:00", "choir-2031-02-03"],
    ]);
  });

  it("moves every occurrence with its first start, keeping their ids", async () => {
    const first = await createEvent(scope, {
      title: "Chess",
      start_date: "2031-01-07 18:00:00",
      end_date: "2031-01-07 20:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"],
    });
    const seriesId = first.series_id ?? 0;
    const before = await occurrences(seriesId);
    const result = await regenerate(
      seriesId,
      ["RRULE:FREQ=WEEKLY;COUNT=3"],
      "2031-01-07 19:30:00",
      "2031-01-07 21:30:00",
      5_400,
    );
    expect(result).toEqual({ kept: before.map((event) => event.id), trashed: [], deleted: [], created: [] });
    expect((await occurrences(seriesId)).map((event) => event.startLocal)).toEqual([
      "2031-01-07 19:30:00",
      "2031-01-14 19:30:00",
      "2031-01-21 19:30:00",
    ]);
  });

  it("trashes rather than deletes a dropped occurrence edited on its own, and the first one", async () => {
    const first = await createEvent(scope, {
      title: "Quartet",
      start_date: "2031-01-08 18:00:00",
      end_date: "2031-01-08 20:00:00",
      timezone: "Europe/Berlin",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"],
    });
    const seriesId = first.series_id ?? 0;
    const before = await occurrences(seriesId);
    await scope.db.event.update({ where: { id: before[1]?.id ?? 0 }, data: { overrides: '["title"]' } });
    const result = await regenerate(
      seriesId,
      ["RRULE:FREQ=WEEKLY;COUNT=3"],
      "2031-01-09 18:00:00",
      "2031-01-09 20:00:00",
      0,
    );
    expect(result.kept).toEqual([]);
    expect(result.trashed.sort()).toEqual([before[0]?.id, before[1]?.id].sort());
    expect(result.deleted).toEqual([before[2]?.id]);
    expect(result.created).toHaveLength(3);
  });
});
