import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

/** The Events Calendar Pro's `recurrence` shape on `POST /events` (docs/behaviour.md, "The plugin's Pro shape"). */
describe.each(PROVIDERS)("creating a series from the plugin's Pro shape (%s)", (provider) => {
  const server = useTestServer(provider);
  const as = () => server.users.administrator;
  const WIDE = { start_date: "2000-01-01", end_date: "2040-12-31", per_page: 50 };

  async function startsOf(id: number) {
    const { body } = await server.call("GET /events/{id}/occurrences", { params: { id }, query: WIDE, status: 200 });
    return body.events.map((event) => event.start_date);
  }

  it("translates a custom weekly rule with an end count and a date exclusion into lines, over REST", async () => {
    const created = await server.call("POST /events", {
      as: as(),
      status: 201,
      body: {
        title: "Choir",
        start_date: "2031-03-25 19:00:00",
        end_date: "2031-03-25 21:00:00",
        timezone: "Europe/Berlin",
        recurrence: {
          rules: [
            {
              type: "Custom",
              "end-type": "After",
              "end-count": "4",
              custom: { type: "Weekly", interval: "2", "same-time": "yes", week: { day: ["2"] } },
            },
          ],
          exclusions: [{ custom: { type: "Date", date: { date: "2031-04-22" } } }],
        },
      },
    });
    expect(created.body.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=4;INTERVAL=2;BYDAY=TU",
      "EXDATE;TZID=Europe/Berlin:20310422T190000",
    ]);
    expect(await startsOf(created.body.id)).toEqual([
      "2031-03-25 19:00:00",
      "2031-04-08 19:00:00",
      "2031-05-06 19:00:00",
    ]);
  });

  it("translates a monthly rule on the last Friday until a date and an added date, through the client", async () => {
    const first = await server.client(as()).events.create.mutate({
      title: "Last Friday",
      start_date: "2031-01-31 18:00:00",
      end_date: "2031-01-31 20:00:00",
      timezone: "Europe/Berlin",
      recurrence: {
        rules: [
          { type: "Monthly", "end-type": "On", end: "2031-04-25", custom: { month: { number: "Last", day: 5 } } },
          { type: "Date", custom: { date: { date: "2031-02-14" } } },
        ],
      },
    });
    expect(first.recurrence).toEqual([
      "RRULE:FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20310425T215959Z",
      "RDATE;TZID=Europe/Berlin:20310214T180000",
    ]);
    expect(await startsOf(first.id)).toEqual([
      "2031-01-31 18:00:00",
      "2031-02-14 18:00:00",
      "2031-02-28 18:00:00",
      "2031-03-28 18:00:00",
      "2031-04-25 18:00:00",
    ]);
  });

  it("refuses what it cannot honour with a 400 naming the part, over REST and tRPC, writing nothing", async () => {
    const event = {
      title: "Refused Pro",
      start_date: "2031-06-02 10:00:00",
      end_date: "2031-06-02 11:00:00",
      timezone: "Europe/Berlin",
    };
    const refusals: Array<[unknown, string]> = [
      [
        { rules: [{ type: "Every Day" }, { type: "Every Week" }] },
        'rules.1: A series has one repeating rule; give its other dates as "Date" rules.',
      ],
      [
        { rules: [{ type: "Daily", custom: { "same-time": "no", "start-time": "08:00" } }] },
        'rules.0.custom.same-time: Every occurrence starts at the event\'s time and lasts as long: "no" (another time) is not supported.',
      ],
      [
        { rules: [{ type: "Every Day" }], exclusions: [{ custom: { type: "Weekly" } }] },
        'exclusions.0.custom.type: Only dates can be excluded: give each as a "Date" exclusion.',
      ],
      [
        { rules: [{ type: "Every Fortnight" }] },
        expect.stringContaining("recurrence[rules][0][type] is not one of Custom,") as unknown as string,
      ],
      [
        { rules: [{ type: "Every Day", on: "Monday" }] },
        expect.stringContaining('rules.0: Unrecognized key: "on"') as unknown as string,
      ],
      [
        { rules: [{ type: "Every Day", "end-type": "After" }] },
        'rules.0.end-count: The number of occurrences is required with "end-type": "After".',
      ],
    ];
    for (const [recurrence, reason] of refusals) {
      const rest = await server.fail("POST /events", 400, { as: as(), body: { ...event, recurrence } });
      expect(rest.body).toMatchObject({ code: "rest_invalid_param", data: { params: { recurrence: reason } } });
      await expect(server.procedures(as()).mutation("events.create", { ...event, recurrence })).rejects.toMatchObject({
        data: { domain: { code: "rest_invalid_param", params: { recurrence: reason } } },
      });
    }
    const written = await server.call("GET /events", { query: { ...WIDE, search: "Refused Pro" }, status: 200 });
    expect(written.body.total).toBe(0);
  });

  it("never ignores a recurrence it does not understand", async () => {
    for (const recurrence of [{ rule: "weekly" }, "RRULE:FREQ=DAILY", 7, []]) {
      const rest = await server.fail("POST /events", 400, {
        as: as(),
        body: {
          title: "Not understood",
          start_date: "2031-06-02 10:00:00",
          end_date: "2031-06-02 11:00:00",
          recurrence,
        },
      });
      expect(rest.body).toMatchObject({
        code: "rest_invalid_param",
        data: { params: { recurrence: expect.any(String) } },
      });
    }
  });
});
