import { readFileSync } from "node:fs";
import { readChangeVersion } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

const file = (name: string) => readFileSync(new URL(`./files/${name}`, import.meta.url), "utf8");

describe.each(PROVIDERS)("importing recurring series (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "Europe/Berlin" } });
  const as = () => server.users.administrator;
  const post = (text: string) =>
    server.call("POST /import", { as: as(), body: text, contentType: "text/calendar", status: 200 });

  async function occurrences(id: number) {
    const { body } = await server.call("GET /events/{id}/occurrences", {
      as: as(),
      params: { id },
      query: { start_date: "2000-01-01", end_date: "2099-12-31", per_page: 50 },
      status: 200,
    });
    return body.events;
  }

  /** What an import must leave alone: the events, their sequences, the change version and the feed's rows. */
  async function snapshot() {
    const events = await server.db.event.findMany({
      select: { id: true, status: true, sequence: true, title: true, startUtc: true, modifiedUtc: true },
      orderBy: { id: "asc" },
    });
    return { events, version: await readChangeVersion(server.db), changes: await server.db.change.count() };
  }

  it("keeps a Google export's weekly master as a series, its RECURRENCE-ID instance as an override", async () => {
    const imported = await post(file("google-weekly.ics"));
    expect([imported.body.created.length, imported.body.skipped, imported.body.series]).toEqual([5, [], 1]);
    const [firstId = 0] = imported.body.created;
    const listed = await occurrences(firstId);
    expect(
      listed.map((event) => [event.title, event.start_date, event.original_start_date, event.post_parent]),
    ).toEqual([
      ["Chorprobe", "2030-03-12 19:00:00", "2030-03-12 19:00:00", 0],
      ["Chorprobe", "2030-03-19 19:00:00", "2030-03-19 19:00:00", firstId],
      ["Chorprobe (später)", "2030-04-02 20:00:00", "2030-04-02 19:00:00", firstId],
      ["Chorprobe", "2030-04-09 19:00:00", "2030-04-09 19:00:00", firstId],
      ["Chorprobe", "2030-04-16 19:00:00", "2030-04-16 19:00:00", firstId],
    ]);
    expect(listed[0]?.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=TU",
      "EXDATE;TZID=Europe/Berlin:20300326T190000",
    ]);
    expect(new Set(listed.map((event) => event.series_id)).size).toBe(1);
    const moved = await server.db.event.findUniqueOrThrow({ where: { id: listed[2]?.id ?? 0 } });
    // A RECURRENCE-ID VEVENT replaces the instance whole (RFC 5545): this one has no DESCRIPTION.
    expect(JSON.parse(moved.overrides)).toEqual(["description", "end_date", "start_date", "title"]);
    expect(moved.description).toBe("");

    const feed = await server.rest("GET", "/cal/events/v1/events.ics", {
      query: { start_date: "2030-01-01", end_date: "2030-12-31" },
    });
    expect(feed.text).toContain("UID:7kd9s0probe@google.com");
    expect(feed.text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
  });

  it("regenerates a series whose rule a newer file changes, keeping the occurrences the new rule still gives", async () => {
    const before = await post(file("google-weekly.ics"));
    expect([before.body.created, before.body.unchanged]).toEqual([[], 5]);
    const longer = file("google-weekly.ics")
      .replace("COUNT=6", "COUNT=8")
      .replace(
        "SEQUENCE:0\r\nSTATUS:CONFIRMED\r\nSUMMARY:Chorprobe\r\n",
        "SEQUENCE:1\r\nSTATUS:CONFIRMED\r\nSUMMARY:Chorprobe\r\n",
      );
    const changes = await server.db.change.count();
    const after = await post(longer);
    expect(after.body.created).toHaveLength(2);
    expect(after.body.skipped).toEqual([]);
    const [firstId = 0] = after.body.updated.sort((a, b) => a - b);
    const listed = await occurrences(firstId);
    expect(listed.map((event) => event.start_date)).toEqual([
      "2030-03-12 19:00:00",
      "2030-03-19 19:00:00",
      "2030-04-02 20:00:00",
      "2030-04-09 19:00:00",
      "2030-04-16 19:00:00",
      "2030-04-23 19:00:00",
      "2030-04-30 19:00:00",
    ]);
    expect(
      listed
        .slice(0, 5)
        .map((event) => event.id)
        .every((id) => after.body.updated.includes(id)),
    ).toBe(true);
    // One change per occurrence created or rewritten.
    expect((await server.db.change.count()) - changes).toBe(7);
  });

  it("reports a RECURRENCE-ID that names no occurrence of the series as skipped", async () => {
    const stray = file("google-weekly.ics")
      .replaceAll("7kd9s0probe@google.com", "stray@google.com")
      .replace("RECURRENCE-ID;TZID=Europe/Berlin:20300402T190000", "RECURRENCE-ID;TZID=Europe/Berlin:20300403T190000");
    const imported = await post(stray);
    expect(imported.body.created).toHaveLength(5);
    expect(imported.body.skipped).toEqual([
      { uid: "stray@google.com", reason: "RECURRENCE-ID 20300403T170000Z is not an occurrence of the series." },
    ]);
  });

  it("keeps writing a UID imported before series were kept as its events, never as a second copy", async () => {
    const legacy = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title: "Chorprobe",
        start_date: "2030-03-12 19:00:00",
        end_date: "2030-03-12 21:00:00",
        timezone: "Europe/Berlin",
      },
    });
    await server.db.event.update({
      where: { id: legacy.body.id },
      data: { icalUid: "legacy@google.com", icalRecurrenceId: "20300312T180000Z" },
    });
    const imported = await post(file("google-weekly.ics").replaceAll("7kd9s0probe@google.com", "legacy@google.com"));
    expect([imported.body.created.length, imported.body.updated, imported.body.skipped]).toEqual([
      4,
      [legacy.body.id],
      [],
    ]);
    expect(await server.db.eventSeries.count({ where: { uid: "legacy@google.com" } })).toBe(0);
    expect(await server.db.event.count({ where: { icalUid: "legacy@google.com" } })).toBe(5);
  });

  it("changes nothing when our own export is imported back into the same calendar", async () => {
    const created = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title: "Yoga",
        start_date: "2031-03-18 19:00:00",
        end_date: "2031-03-18 20:30:00",
        timezone: "Europe/Berlin",
        recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6", "RDATE;TZID=Europe/Berlin:20310503T100000"],
      },
    });
    const allDay = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title: "Stadtfest",
        start_date: "2031-06-21",
        end_date: "2031-06-21",
        all_day: true,
        timezone: "Europe/Berlin",
        recurrence: ["RRULE:FREQ=YEARLY;COUNT=3"],
      },
    });
    await server.call("POST /events", {
      as: as(),
      status: 201,
      body: { title: "Einzeltermin", start_date: "2031-04-10 18:00:00", end_date: "2031-04-10 19:00:00" },
    });
    const weekly = await occurrences(created.body.id);
    await server.call("POST /events/{id}", {
      as: as(),
      params: { id: weekly[2]?.id ?? 0 },
      body: { title: "Yoga (später)", start_date: "2031-04-01 20:00:00", end_date: "2031-04-01 21:30:00" },
      status: 200,
    });
    await server.call("DELETE /events/{id}", { as: as(), params: { id: weekly[3]?.id ?? 0 }, status: 200 });
    expect((await occurrences(allDay.body.id)).length).toBe(3);

    const before = await snapshot();
    for (const query of [
      { start_date: "2031-01-01", end_date: "2033-12-31" },
      { start_date: "2031-04-01", end_date: "2031-04-30" },
    ]) {
      const feed = await server.rest("GET", "/cal/events/v1/events.ics", { query });
      const imported = await post(feed.text);
      expect([imported.body.created, imported.body.updated, imported.body.skipped]).toEqual([[], [], []]);
      expect(imported.body.unchanged).toBeGreaterThan(0);
      expect(await snapshot()).toEqual(before);
    }
  });
});
