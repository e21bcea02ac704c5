import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { documentOf, jsonBodyOf, operationOf } from "../rest/api-document.ts";
import { useTestServer } from "../support/server.ts";
import { STARTS, seriesRequests, WINDOW } from "./support.ts";

/** The starts of `WEEKLY` as EXDATE values. */
const EXDATES = ["20310311T190000", "20310318T190000", "20310325T190000", "20310401T190000", "20310408T190000"];

describe.each(PROVIDERS)("deleting the occurrences of a series (%s)", (provider) => {
  const server = useTestServer(provider);
  const { admin, createSeries, occurrencesOf, occurrenceAt, tokenNow, changedSince } = seriesRequests(server);

  async function statusesOf(ids: readonly number[]) {
    const rows = await server.db.event.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, status: true },
      orderBy: { id: "asc" },
    });
    return ids.map((id) => rows.find((row) => row.id === id)?.status ?? "deleted");
  }

  it.each([
    ["first", 0],
    ["middle", 2],
    ["last", 4],
  ])("trashes the %s occurrence alone by default and excludes its start from the rule", async (_name, index) => {
    const before = await createSeries(`Once ${index}`);
    const target = occurrenceAt(before, index);
    const token = await tokenNow();
    const deleted = await server.call("DELETE /events/{id}", { as: admin(), params: { id: target.id }, status: 200 });
    expect(deleted.body).toMatchObject({ id: target.id, status: "trash" });
    const exdate = `EXDATE;TZID=Europe/Berlin:${EXDATES[index]}`;
    expect(deleted.body.recurrence).toEqual(["RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=TU", exdate]);
    const left = occurrencesOf(occurrenceAt(before, index === 0 ? 1 : 0).id);
    expect((await left).map((event) => [event.start_date, event.recurrence])).toEqual(
      STARTS.filter((_start, at) => at !== index).map((start) => [start, deleted.body.recurrence]),
    );
    expect(await changedSince(token)).toEqual([[target.id, "trashed"]]);
  });

  it("moves a series whose first occurrence was deleted, keeping that start excluded", async () => {
    const before = await createSeries("Headless");
    await server.call("DELETE /events/{id}", { as: admin(), params: { id: occurrenceAt(before, 0).id }, status: 200 });
    const second = occurrenceAt(before, 1);
    const moved = await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: second.id },
      body: { start_date: "2031-03-18 18:00:00", end_date: "2031-03-18 19:30:00", recurrence_scope: "all" },
      status: 200,
    });
    expect(moved.body.recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=TU",
      "EXDATE;TZID=Europe/Berlin:20310311T180000",
    ]);
    expect((await occurrencesOf(second.id)).map((event) => [event.id, event.start_date])).toEqual(
      before.slice(1).map((event, at) => [event.id, STARTS[at + 1]?.replace("19:00:00", "18:00:00")]),
    );
  });

  it("deletes one occurrence permanently with force, excluding its start", async () => {
    const before = await createSeries("Forced");
    const target = occurrenceAt(before, 1);
    await server.call("DELETE /events/{id}", {
      as: admin(),
      params: { id: target.id },
      query: { force: "true" },
      status: 200,
    });
    expect(await statusesOf(before.map((event) => event.id))).toEqual([
      "publish",
      "deleted",
      "publish",
      "publish",
      "publish",
    ]);
    expect(occurrenceAt(await occurrencesOf(occurrenceAt(before, 0).id), 0).recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=TU",
      `EXDATE;TZID=Europe/Berlin:${EXDATES[1]}`,
    ]);
  });

  it.each([
    ["middle", 2],
    ["last", 4],
  ])("ends the series before the %s occurrence with the scope following", async (_name, index) => {
    const before = await createSeries(`Following ${index}`);
    const target = occurrenceAt(before, index);
    const token = await tokenNow();
    const deleted = await server.call("DELETE /events/{id}", {
      as: admin(),
      params: { id: target.id },
      query: { recurrence_scope: "following" },
      status: 200,
    });
    expect(deleted.body).toMatchObject({ id: target.id, status: "trash" });
    const ids = before.map((event) => event.id);
    expect(await statusesOf(ids)).toEqual(ids.map((_id, at) => (at < index ? "publish" : "trash")));
    const left = await occurrencesOf(occurrenceAt(before, 0).id);
    expect(left.map((event) => event.start_date)).toEqual(STARTS.slice(0, index));
    const until = index === 2 ? "20310318T180000Z" : "20310401T170000Z";
    expect(occurrenceAt(left, 0).recurrence).toEqual([`RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=${until}`]);
    expect((await changedSince(token)).sort(([a], [b]) => a - b)).toEqual(
      ids.slice(index).map((id) => [id, "trashed"]),
    );
  });

  it("trashes every occurrence with the scope all (following on the first is all), and removes the series with force", async () => {
    for (const recurrence_scope of ["all", "following"]) {
      const before = await createSeries(`Gone ${recurrence_scope}`);
      const ids = before.map((event) => event.id);
      const token = await tokenNow();
      await server.call("DELETE /events/{id}", {
        as: admin(),
        params: { id: recurrence_scope === "all" ? occurrenceAt(before, 3).id : occurrenceAt(before, 0).id },
        query: { recurrence_scope },
        status: 200,
      });
      expect(await statusesOf(ids)).toEqual(Array(5).fill("trash"));
      expect((await changedSince(token)).sort(([a], [b]) => a - b)).toEqual(ids.map((id) => [id, "trashed"]));
      const anonymous = await server.call("GET /events", { query: { ...WINDOW, search: "Gone" }, status: 200 });
      expect(anonymous.body.total).toBe(0);
    }
    const forced = await createSeries("Purged");
    const ids = forced.map((event) => event.id);
    const seriesId = occurrenceAt(forced, 0).series_id ?? 0;
    await server.call("DELETE /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(forced, 1).id },
      status: 200,
    });
    const answer = await server.call("DELETE /events/by-slug/{slug}", {
      as: admin(),
      params: { slug: occurrenceAt(forced, 2).slug },
      query: { recurrence_scope: "all", force: "true" },
      status: 200,
    });
    expect(answer.body).toMatchObject({ id: occurrenceAt(forced, 2).id, title: "Purged" });
    expect(await statusesOf(ids)).toEqual(Array(5).fill("deleted"));
    expect(await server.db.eventSeries.findUnique({ where: { id: seriesId } })).toBeNull();
  });

  it("deletes the later occurrences over tRPC, and refuses a bad scope (400) and an already trashed occurrence (410)", async () => {
    const before = await createSeries("Rpc");
    const target = occurrenceAt(before, 3);
    const answer = await server.client(admin()).events.delete.mutate({ id: target.id, recurrence_scope: "following" });
    expect(answer).toMatchObject({ id: target.id, status: "trash" });
    expect((await occurrencesOf(occurrenceAt(before, 0).id)).map((event) => event.start_date)).toEqual(
      STARTS.slice(0, 3),
    );
    const bad = await server.fail("DELETE /events/{id}", 400, {
      as: admin(),
      params: { id: occurrenceAt(before, 0).id },
      query: { recurrence_scope: "everything" },
    });
    expect(bad.body).toMatchObject({
      code: "rest_invalid_param",
      data: { params: { recurrence_scope: expect.any(String) } },
    });
    const again = await server.fail("DELETE /events/{id}", 410, {
      as: admin(),
      params: { id: target.id },
      query: { recurrence_scope: "all" },
    });
    expect(again.body.code).toBe("event-is-in-trash");
    expect(await statusesOf(before.map((event) => event.id))).toEqual([
      "publish",
      "publish",
      "publish",
      "trash",
      "trash",
    ]);
  });

  it("refuses to delete all (403) when the author may not delete one occurrence, and deletes nothing", async () => {
    const author = server.users.author;
    const before = await createSeries("Shared", author);
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 4).id },
      body: { author: server.users.editor.id },
      status: 200,
    });
    const token = await tokenNow();
    for (const recurrence_scope of ["all", "following"]) {
      await server.fail("DELETE /events/{id}", 403, {
        as: author,
        params: { id: occurrenceAt(before, 2).id },
        query: { recurrence_scope },
      });
    }
    expect(await statusesOf(before.map((event) => event.id))).toEqual(Array(5).fill("publish"));
    expect(occurrenceAt(await occurrencesOf(occurrenceAt(before, 0).id), 0).recurrence).toEqual([
      "RRULE:FREQ=WEEKLY;COUNT=5;BYDAY=TU",
    ]);
    expect(await changedSince(token)).toEqual([]);
  });

  it("documents recurrence_scope in the API document: a query parameter of DELETE, a body field of the updates", async () => {
    const document = await documentOf(server);
    const scopeValues = ["this", "following", "all"];
    for (const path of ["/events/{id}", "/events/by-slug/{slug}"]) {
      const parameter = operationOf(document, path, "delete").parameters?.find(
        (candidate) => "name" in candidate && candidate.name === "recurrence_scope",
      );
      expect(parameter).toMatchObject({ in: "query", schema: { enum: scopeValues } });
      for (const method of ["post", "put", "patch"] as const) {
        const body = jsonBodyOf(operationOf(document, path, method));
        expect(body?.schema).toMatchObject({ properties: { recurrence_scope: { enum: scopeValues } } });
      }
    }
  });
});
