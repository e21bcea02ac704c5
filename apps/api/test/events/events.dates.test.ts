import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { paramNames, trpcFailure } from "../support/errors.ts";
import { useTestServer } from "../support/server.ts";
import { eventsOf } from "./support.ts";

const VALID = { title: "Dated", start_date: "2030-01-01 10:00:00", end_date: "2030-01-01 11:00:00" };

/** Dates that do not exist, or are written in figures in an order the API does not read. */
const IMPOSSIBLE = ["2030-13-01 20:00:00", "2027-13-01", "2027-02-29", "13/01/2027", "13.01.2027", "03/04/27"];

/** One value of each form the API reads (docs/behaviour.md, "Date values"). */
const ACCEPTED = [
  "2030-03-04 20:00:00",
  "2030-03-04",
  "2030-03-04T20:00:00+01:00",
  "20300304",
  "1900000000",
  "03/04/2030",
  "2030/03/04 8pm",
  "now",
  "tomorrow",
  "tomorrow 9am",
  "next wednesday 4pm",
  "+1 week",
  "-2 days",
];

describe.each(PROVIDERS)("impossible and ambiguous dates (%s)", (provider) => {
  const server = useTestServer(provider);
  const events = eventsOf(server);
  const admin = () => server.users.administrator;
  const rpc = () => server.procedures(admin());

  it.each(["start_date", "end_date", "date", "date_utc"])(
    "refuses a create whose %s does not exist, over REST and tRPC, and writes nothing",
    async (name) => {
      const before = await server.db.event.count();
      for (const value of IMPOSSIBLE) {
        const body = { ...VALID, [name]: value };
        const { body: error } = await server.fail("POST /events", 400, { as: admin(), body });
        expect([value, error.code, paramNames(error)]).toEqual([value, "rest_invalid_param", [name]]);
        const failure = await trpcFailure(rpc().mutation("events.create", body));
        expect([value, failure.status, failure.code, Object.keys(failure.params ?? {})]).toEqual([
          value,
          400,
          "rest_invalid_param",
          [name],
        ]);
      }
      expect(await server.db.event.count()).toBe(before);
    },
  );

  it("refuses an update to a date that does not exist and keeps the event as it was", async () => {
    const event = await events.create(VALID);
    for (const value of IMPOSSIBLE) {
      const body = { start_date: value };
      const { body: error } = await server.fail("PATCH /events/{id}", 400, {
        as: admin(),
        params: { id: event.id },
        body,
      });
      expect([value, paramNames(error)]).toEqual([value, ["start_date"]]);
      const failure = await trpcFailure(rpc().mutation("events.update", { id: event.id, ...body }));
      expect([value, failure.status, Object.keys(failure.params ?? {})]).toEqual([value, 400, ["start_date"]]);
    }
    const stored = await server.call("GET /events/{id}", { params: { id: event.id } });
    expect([stored.body.start_date, stored.body.end_date]).toEqual([VALID.start_date, VALID.end_date]);
  });

  it.each(["start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"])(
    "refuses a list whose %s does not exist, over REST and tRPC",
    async (name) => {
      for (const value of IMPOSSIBLE) {
        const { body } = await server.fail("GET /events", 400, { query: { [name]: value } });
        expect([value, body.code, paramNames(body)]).toEqual([value, "rest_invalid_param", [name]]);
        const failure = await trpcFailure(rpc().query("events.list", { [name]: value }));
        expect([value, failure.status, Object.keys(failure.params ?? {})]).toEqual([value, 400, [name]]);
      }
    },
  );

  it.each(["date", "date_utc"])("refuses a venue whose %s does not exist, over REST and tRPC", async (name) => {
    for (const value of IMPOSSIBLE) {
      const body = { venue: "Dated hall", [name]: value };
      const { body: error } = await server.fail("POST /venues", 400, { as: admin(), body });
      expect([value, paramNames(error)]).toEqual([value, [name]]);
      const failure = await trpcFailure(rpc().mutation("venues.create", body));
      expect([value, failure.status, Object.keys(failure.params ?? {})]).toEqual([value, 400, [name]]);
    }
    expect(await server.db.venue.count({ where: { name: "Dated hall" } })).toBe(0);
  });

  it("reads month/day/year as the reference does, and the year-first forms", async () => {
    const stored = await events.create({ ...VALID, start_date: "03/04/2030 10:00", end_date: "2030/03/04 11:30" });
    expect([stored.start_date, stored.end_date]).toEqual(["2030-03-04 10:00:00", "2030-03-04 11:30:00"]);
    const listed = await events.ids({ start_date: "03/04/2030", end_date: "2030-3-4" });
    expect(listed).toEqual([stored.id]);
  });

  it.each(ACCEPTED)("still accepts %s in writes and list queries", async (value) => {
    await events.create({ ...VALID, start_date: value, end_date: value, date: value });
    await events.list({ start_date: value, end_date: "2099-01-01" });
    await events.list({ starts_after: value });
    const listed = await server.client().events.list.query({ ends_after: value });
    expect(Array.isArray(listed.events)).toBe(true);
  });
});
