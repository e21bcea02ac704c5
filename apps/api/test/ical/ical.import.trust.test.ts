import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { expectNoStall } from "../support/stall.ts";

/**
 * What an editor's file can make the import do is bounded and never blocks the server. Before: a custom VTIMEZONE
 * whose observance had `RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30` hung the process for good (ical.js expanded the
 * observance's rule without a bound to convert the event's times), U+0000 in a text property answered 500 on
 * PostgreSQL, and a 2,000-event import blocked the server for seconds.
 */

function calendarOf(lines: string[]): string {
  return ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//t//EN", ...lines, "END:VCALENDAR", ""].join("\r\n");
}

function vevent(uid: string, start: string, extra: string[] = [], tzid?: string): string[] {
  const zone = tzid ? `;TZID=${tzid}` : "";
  const end = start.replace(/T10/, "T11");
  return [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20300101T000000Z",
    `DTSTART${zone}:${start}`,
    `DTEND${zone}:${end}`,
    `SUMMARY:Event ${uid}`,
    ...extra,
    "END:VEVENT",
  ];
}

/** A zone of +01:00 in winter and +02:00 from the daylight observance's onsets, which `rule` gives. */
function zone(tzid: string, rule: string, daylightStart = "20000326T020000"): string[] {
  return [
    "BEGIN:VTIMEZONE",
    `TZID:${tzid}`,
    "BEGIN:STANDARD",
    "DTSTART:20001029T030000",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "END:STANDARD",
    "BEGIN:DAYLIGHT",
    `DTSTART:${daylightStart}`,
    `RRULE:${rule}`,
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0200",
    "END:DAYLIGHT",
    "END:VTIMEZONE",
  ];
}

const DRY_RUN_THEN_WRITE: Record<string, string>[] = [{ dry_run: "true" }, {}];

const NUL_PARAM = {
  code: "rest_invalid_param",
  message: "Invalid parameter(s): calendar",
  data: { status: 400, params: { calendar: "Must not contain the character U+0000." } },
};

describe.each(PROVIDERS)("iCalendar import: what a file can make it do (%s)", (provider) => {
  const server = useTestServer(provider, { site: { timezone: "UTC" } });
  const post = (text: string, query: Record<string, string> = {}) =>
    server.call("POST /import", {
      as: server.users.editor,
      body: text,
      contentType: "text/calendar",
      query,
      status: 200,
    });
  const startsOf = async (ids: number[]) =>
    Promise.all(
      ids.map(
        async (id) =>
          (await server.call("GET /events/{id}", { params: { id }, as: server.users.administrator })).body
            .utc_start_date,
      ),
    );

  it("converts times through a custom VTIMEZONE's yearly observances", async () => {
    const text = calendarOf([
      ...zone("Custom/Atlantis", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"),
      ...vevent("atlantis-winter@test", "20310115T100000", [], "Custom/Atlantis"),
      ...vevent("atlantis-summer@test", "20310715T100000", [], "Custom/Atlantis"),
    ]);
    const { body } = await post(text);
    expect(body.skipped).toEqual([]);
    expect(await startsOf(body.created)).toEqual(["2031-01-15 09:00:00", "2031-07-15 08:00:00"]);
  });

  it.each([
    ["a DAILY rule with no date (30 February)", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "16010101T020000"],
    ["a SECONDLY rule", "FREQ=SECONDLY", "20000326T020000"],
    ["a MINUTELY rule with no date", "FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30", "20000326T020000"],
    ["an HOURLY rule", "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "20000326T020000"],
  ])(
    "skips the events of a custom VTIMEZONE with %s with the reason, without blocking the server",
    async (_, rule, dtstart) => {
      const utcUid = `utc-${rule}@test`;
      const text = calendarOf([
        ...zone("Custom/Never", rule, dtstart),
        ...vevent("never@test", "20310310T100000", [], "Custom/Never"),
        ...vevent(utcUid, "20310310T100000Z"),
      ]);
      for (const query of DRY_RUN_THEN_WRITE) {
        const { answer } = await expectNoStall(server.origin, () => post(text, query));
        expect(answer.body.created).toHaveLength(1);
        expect(answer.body.unchanged).toBe(0);
        expect(answer.body.skipped).toEqual([
          {
            uid: "never@test",
            reason: expect.stringMatching(
              /^The time zone "Custom\/Never" cannot be used: the RRULE of its DAYLIGHT observance (tests more than 2000 candidate times|gives more than 2000 onsets) before 20\d\d-01-01\.$/,
            ),
          },
        ]);
      }
      const health = await server.rest("GET", "/healthz");
      expect(health.status).toBe(200);
    },
  );

  it("never lets a file's VTIMEZONE named like an IANA zone replace the tz database's rules", async () => {
    const text = calendarOf([
      ...zone("Europe/Berlin", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "16010101T020000"),
      ...vevent("berlin@test", "20310715T100000", ["RRULE:FREQ=WEEKLY;COUNT=2"], "Europe/Berlin"),
    ]);
    const { answer } = await expectNoStall(server.origin, () => post(text));
    expect(answer.body.skipped).toEqual([]);
    expect((await startsOf(answer.body.created)).sort()).toEqual(["2031-07-15 08:00:00", "2031-07-22 08:00:00"]);
  });

  it("answers a file with U+0000 in a text property 400 naming calendar, writing nothing, REST and tRPC alike", async () => {
    const before = await server.db.event.count();
    const text = calendarOf(vevent("nul@test", "20310310T100000Z", ["DESCRIPTION:before\u0000after"]));
    for (const query of DRY_RUN_THEN_WRITE) {
      const response = await server.fail("POST /import", 400, {
        as: server.users.editor,
        body: text,
        contentType: "text/calendar",
        query,
      });
      expect(response.body).toEqual(NUL_PARAM);
    }
    const failure = await trpcFailure(server.client(server.users.editor).import.calendar.mutate({ calendar: text }));
    expect([failure.status, failure.code]).toEqual([400, "rest_invalid_param"]);
    expect(await server.db.event.count()).toBe(before);
  });

  it("refuses a 9 MiB file of 44,000 events with a 413 without blocking the server", async () => {
    const events = Array.from({ length: 44_000 }, (_, index) =>
      vevent(`many-${index}@test`, "20310310T100000Z", [`DESCRIPTION:${"x".repeat(60)}`]),
    );
    const text = calendarOf(events.flat());
    const { answer } = await expectNoStall(server.origin, () =>
      server.fail("POST /import", 413, { as: server.users.editor, body: text, contentType: "text/calendar" }),
    );
    expect([answer.body.code, answer.body.data.limit]).toEqual(["rest_import_too_large", 2_000]);
  }, 120_000);

  it("imports 2,000 events without blocking the server", async () => {
    const events = Array.from({ length: 2_000 }, (_, index) =>
      vevent(
        `bulk-${index}@test`,
        `2031${String(1 + (index % 12)).padStart(2, "0")}${String(1 + (index % 28)).padStart(2, "0")}T100000Z`,
        [`DESCRIPTION:${"A description of some length. ".repeat(20)}`, "LOCATION:Town hall", "CATEGORIES:Bulk"],
      ),
    );
    const text = calendarOf(events.flat());
    const { answer } = await expectNoStall(server.origin, () => post(text));
    expect([answer.body.created.length, answer.body.skipped]).toEqual([2_000, []]);
    const again = await expectNoStall(server.origin, () => post(text, { dry_run: "true" }));
    expect([again.answer.body.created.length, again.answer.body.unchanged]).toEqual([0, 2_000]);
  }, 400_000);
});
