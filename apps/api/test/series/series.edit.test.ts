import { PROVIDERS, type TestUser } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";
import { STARTS, seriesRequests, WEEKLY, WINDOW } from "./support.ts";

describe.each(PROVIDERS)("editing the occurrences of a series (%s)", (provider) => {
  const server = useTestServer(provider);
  const series = seriesRequests(server);
  const { admin, createSeries, occurrenceAt, tokenNow, changedSince } = series;
  /** Every status, so that drafts and private occurrences are listed too. */
  const occurrencesOf = (id: number, as: TestUser = admin()) =>
    series.occurrencesOf(id, as, { status: "publish,draft,pending,private" });

  async function overridesOf(id: number): Promise<unknown> {
    const row = await server.db.event.findUniqueOrThrow({ where: { id }, select: { overrides: true } });
    return JSON.parse(row.overrides);
  }

  it.each([
    ["first", 0],
    ["middle", 2],
    ["last", 4],
  ])("edits the %s occurrence alone by default: an exception overriding the fields sent", async (_name, index) => {
    const before = await createSeries(`Alone ${index}`);
    const target = occurrenceAt(before, index);
    const token = await tokenNow();
    const edited = await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: target.id },
      body: { title: "Exception", start_date: "2031-06-01 10:00:00", end_date: "2031-06-01 11:00:00" },
      status: 200,
    });
    expect(edited.body).toMatchObject({
      id: target.id,
      title: "Exception",
      start_date: "2031-06-01 10:00:00",
      original_start_date: STARTS[index],
      series_id: target.series_id,
      recurrence: target.recurrence,
    });
    expect(await overridesOf(target.id)).toEqual(["title", "start_date", "end_date"]);
    const after = await occurrencesOf(target.id);
    expect(after.map((event) => event.title).filter((title) => title === "Exception")).toEqual(["Exception"]);
    expect(after.map((event) => event.original_start_date)).toEqual([
      ...STARTS.slice(0, index),
      ...STARTS.slice(index + 1),
      STARTS[index],
    ]);
    expect(await changedSince(token)).toEqual([[target.id, "updated"]]);
  });

  it("refuses recurrence with the scope this (400 naming recurrence_scope) and bad scopes, writing nothing", async () => {
    const [first] = await createSeries("Refusals");
    const id = first?.id ?? 0;
    const refused = await server.fail("POST /events/{id}", 400, {
      as: admin(),
      params: { id },
      body: { title: "Never", recurrence: ["RRULE:FREQ=DAILY;COUNT=2"] },
    });
    expect(refused.body).toMatchObject({
      code: "rest_invalid_param",
      data: { params: { recurrence_scope: expect.any(String) } },
    });
    for (const scope of ["some", "ALL", ""]) {
      const bad = await server.fail("PATCH /events/{id}", 400, {
        as: admin(),
        params: { id },
        query: { recurrence_scope: scope },
        body: { title: "Never" },
      });
      expect(bad.body).toMatchObject({
        code: "rest_invalid_param",
        data: { params: { recurrence_scope: expect.any(String) } },
      });
    }
    const slugAll = await server.fail("POST /events/{id}", 400, {
      as: admin(),
      params: { id },
      body: { slug: "one-for-all", recurrence_scope: "all" },
    });
    expect(slugAll.body).toMatchObject({ data: { params: { slug: expect.any(String) } } });
    await expect(
      server.procedures(admin()).mutation("events.update", { id, recurrence_scope: "every", title: "Never" }),
    ).rejects.toMatchObject({ data: { domain: { code: "rest_invalid_param" } } });
    expect((await occurrencesOf(id)).map((event) => event.title)).toEqual(Array(5).fill("Refusals"));
  });

  it.each([
    ["first", 0],
    ["middle", 2],
    ["last", 4],
  ])(
    "edits every occurrence from the %s with the scope all: one change each, none when nothing changes",
    async (_name, index) => {
      const before = await createSeries(`All ${index}`);
      const target = occurrenceAt(before, index);
      const token = await tokenNow();
      const edited = await server.call("PUT /events/{id}", {
        as: admin(),
        params: { id: target.id },
        query: { recurrence_scope: "all" },
        body: { title: "Everyone", categories: [`Yoga ${index}`], excerpt: "For everyone." },
        status: 200,
      });
      expect(edited.body).toMatchObject({ id: target.id, title: "Everyone", excerpt: "For everyone." });
      const after = await occurrencesOf(target.id);
      expect(
        after.map((event) => [event.id, event.title, event.start_date, event.categories.map((c) => c.name)]),
      ).toEqual(before.map((event) => [event.id, "Everyone", event.start_date, [`Yoga ${index}`]]));
      expect(
        (await changedSince(token))
          .filter(([, action]) => action === "updated")
          .map(([id]) => id)
          .sort(),
      ).toEqual(before.map((event) => event.id).sort());
      const category = await server.call("GET /categories", { query: { search: `Yoga ${index}` }, status: 200 });
      expect(category.body.categories.map((term) => term.count)).toEqual([5]);
      const again = await tokenNow();
      await server.call("POST /events/{id}", {
        as: admin(),
        params: { id: target.id },
        body: { title: "Everyone", recurrence_scope: "all" },
        status: 200,
      });
      expect(await changedSince(again)).toEqual([]);
    },
  );

  it("keeps a moved occurrence's start and its overrides on an edit of all, unless the edit names them", async () => {
    const before = await createSeries("Choir");
    const moved = occurrenceAt(before, 1);
    await server.call("PATCH /events/{id}", {
      as: admin(),
      params: { id: moved.id },
      body: { title: "Choir (moved)", start_date: "2031-03-19 18:00:00", end_date: "2031-03-19 19:30:00" },
      status: 200,
    });
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 3).id },
      body: { excerpt: "Bring water.", recurrence_scope: "all" },
      status: 200,
    });
    const kept = await occurrencesOf(moved.id);
    expect(kept.map((event) => [event.title, event.start_date, event.excerpt])).toEqual([
      ["Choir", "2031-03-11 19:00:00", "Bring water."],
      ["Choir (moved)", "2031-03-19 18:00:00", "Bring water."],
      ["Choir", "2031-03-25 19:00:00", "Bring water."],
      ["Choir", "2031-04-01 19:00:00", "Bring water."],
      ["Choir", "2031-04-08 19:00:00", "Bring water."],
    ]);
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 0).id },
      body: { title: "Chorus", recurrence_scope: "all" },
      status: 200,
    });
    const renamed = await occurrencesOf(moved.id);
    expect(renamed.map((event) => [event.title, event.start_date])).toEqual([
      ["Chorus", "2031-03-11 19:00:00"],
      ["Chorus", "2031-03-19 18:00:00"],
      ["Chorus", "2031-03-25 19:00:00"],
      ["Chorus", "2031-04-01 19:00:00"],
      ["Chorus", "2031-04-08 19:00:00"],
    ]);
    expect(await overridesOf(moved.id)).toEqual(["start_date", "end_date"]);
  });

  it("moves the whole series by the addressed occurrence's move, keeping ids, across summer time", async () => {
    const before = await createSeries("Later");
    const token = await tokenNow();
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 2).id },
      body: { start_date: "2031-03-25 20:00:00", end_date: "2031-03-25 22:00:00", recurrence_scope: "all" },
      status: 200,
    });
    const after = await occurrencesOf(occurrenceAt(before, 0).id);
    expect(after.map((event) => [event.id, event.start_date, event.end_date, event.utc_start_date])).toEqual([
      [occurrenceAt(before, 0).id, "2031-03-11 20:00:00", "2031-03-11 22:00:00", "2031-03-11 19:00:00"],
      [occurrenceAt(before, 1).id, "2031-03-18 20:00:00", "2031-03-18 22:00:00", "2031-03-18 19:00:00"],
      [occurrenceAt(before, 2).id, "2031-03-25 20:00:00", "2031-03-25 22:00:00", "2031-03-25 19:00:00"],
      [occurrenceAt(before, 3).id, "2031-04-01 20:00:00", "2031-04-01 22:00:00", "2031-04-01 18:00:00"],
      [occurrenceAt(before, 4).id, "2031-04-08 20:00:00", "2031-04-08 22:00:00", "2031-04-08 18:00:00"],
    ]);
    expect(after.map((event) => event.original_start_date)).toEqual(after.map((event) => event.start_date));
    expect((await changedSince(token)).length).toBe(5);
  });

  it("regenerates on a new recurrence with the scope all: surviving starts keep their ids, the others are deleted or created", async () => {
    const before = await createSeries("Regenerated");
    const token = await tokenNow();
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 4).id },
      body: { recurrence: ["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=4"], recurrence_scope: "all" },
      status: 200,
    });
    const after = await occurrencesOf(occurrenceAt(before, 0).id);
    expect(after.map((event) => event.start_date)).toEqual([
      "2031-03-11 19:00:00",
      "2031-03-25 19:00:00",
      "2031-04-08 19:00:00",
      "2031-04-22 19:00:00",
    ]);
    expect(after.slice(0, 3).map((event) => event.id)).toEqual(
      [0, 2, 4].map((index) => occurrenceAt(before, index).id),
    );
    expect(occurrenceAt(after, 3)).toMatchObject({
      slug: "regenerated-2031-04-22",
      post_parent: occurrenceAt(before, 0).id,
    });
    expect(after.every((event) => event.recurrence?.[0] === "RRULE:FREQ=WEEKLY;COUNT=4;INTERVAL=2;BYDAY=TU")).toBe(
      true,
    );
    // Copies of the series never edited on their own: deleted, not trashed (issue 32), so rule changes leave no trash.
    const dropped = await server.db.event.findMany({
      where: { id: { in: [occurrenceAt(before, 1).id, occurrenceAt(before, 3).id] } },
      select: { status: true },
    });
    expect(dropped).toEqual([]);
    expect((await changedSince(token)).map(([, action]) => action).sort()).toEqual(["created", "deleted", "deleted"]);
  });

  it("splits the series at a middle occurrence with the scope following: the earlier part ends, the later one is a new series", async () => {
    const before = await createSeries("Split");
    const target = occurrenceAt(before, 2);
    const token = await tokenNow();
    await server.call("PATCH /events/{id}", {
      as: admin(),
      params: { id: target.id },
      body: { title: "Split (new room)", recurrence_scope: "following" },
      status: 200,
    });
    const earlier = await occurrencesOf(occurrenceAt(before, 0).id);
    expect(earlier.map((event) => [event.id, event.title, event.series_id])).toEqual(
      before.slice(0, 2).map((event) => [event.id, "Split", event.series_id]),
    );
    expect(occurrenceAt(earlier, 0).recurrence).toEqual(["RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20310318T180000Z"]);
    const later = await occurrencesOf(target.id);
    expect(later.map((event) => [event.id, event.title, event.post_parent])).toEqual([
      [target.id, "Split (new room)", 0],
      [occurrenceAt(before, 3).id, "Split (new room)", target.id],
      [occurrenceAt(before, 4).id, "Split (new room)", target.id],
    ]);
    expect(occurrenceAt(later, 0).series_id).not.toBe(target.series_id);
    expect(occurrenceAt(later, 0).recurrence).toEqual(["RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=TU"]);
    expect(later.map((event) => event.original_start_date)).toEqual(STARTS.slice(2));
    const series = await server.db.eventSeries.findMany({
      where: { id: { in: [target.series_id ?? 0, occurrenceAt(later, 0).series_id ?? 0] } },
      select: { uid: true, firstEventId: true, startLocal: true },
      orderBy: { id: "asc" },
    });
    expect(series.map((row) => [row.firstEventId, row.startLocal])).toEqual([
      [occurrenceAt(before, 0).id, STARTS[0]],
      [target.id, STARTS[2]],
    ]);
    expect(new Set(series.map((row) => row.uid)).size).toBe(2);
    expect((await changedSince(token)).map(([id]) => id).sort()).toEqual(later.map((event) => event.id).sort());
  });

  it("treats following on the first occurrence (by slug) as all, and splits off the last occurrence alone", async () => {
    const before = await createSeries("Ends");
    await server.call("PATCH /events/by-slug/{slug}", {
      as: admin(),
      params: { slug: occurrenceAt(before, 0).slug },
      query: { recurrence_scope: "following" },
      body: { title: "Ends (all)" },
      status: 200,
    });
    const all = await occurrencesOf(occurrenceAt(before, 0).id);
    expect(all.map((event) => [event.title, event.series_id])).toEqual(
      before.map((event) => ["Ends (all)", event.series_id]),
    );
    const last = occurrenceAt(before, 4);
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: last.id },
      body: { title: "Ends (last)", recurrence_scope: "following" },
      status: 200,
    });
    const alone = await occurrencesOf(last.id);
    expect(alone.map((event) => [event.id, event.title, event.post_parent, event.recurrence])).toEqual([
      [last.id, "Ends (last)", 0, ["RRULE:FREQ=WEEKLY;COUNT=1;BYDAY=TU"]],
    ]);
    expect((await occurrencesOf(occurrenceAt(before, 0).id)).map((event) => event.title)).toEqual(
      Array(4).fill("Ends (all)"),
    );
  });

  it("regenerates the later part on a new recurrence with the scope following, over tRPC", async () => {
    const before = await createSeries("Rpc");
    const target = occurrenceAt(before, 1);
    const answer = await server.client(admin()).events.update.mutate({
      id: target.id,
      recurrence_scope: "following",
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=2"],
    });
    expect(answer).toMatchObject({ id: target.id, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=2;BYDAY=TU"], post_parent: 0 });
    const later = await occurrencesOf(target.id);
    expect(later.map((event) => [event.id, event.start_date])).toEqual([
      [target.id, STARTS[1]],
      [occurrenceAt(before, 2).id, STARTS[2]],
    ]);
    const dropped = await server.db.event.findMany({
      where: { id: { in: [3, 4].map((index) => occurrenceAt(before, index).id) } },
      select: { status: true },
    });
    expect(dropped).toEqual([]);
    expect((await occurrencesOf(occurrenceAt(before, 0).id)).map((event) => event.id)).toEqual([
      occurrenceAt(before, 0).id,
    ]);
  });

  it("hides every occurrence from anonymous readers when all takes a status or a password", async () => {
    const before = await createSeries("Hidden");
    const ids = before.map((event) => event.id);
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 1).id },
      body: { password: "secret", recurrence_scope: "all" },
      status: 200,
    });
    for (const id of ids) {
      const read = await server.fail("GET /events/{id}", 403, { params: { id } });
      expect(read.body.code).toBe("event-password-protected");
    }
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: occurrenceAt(before, 3).id },
      body: { status: "draft", password: "", recurrence_scope: "all" },
      status: 200,
    });
    const anonymous = await server.call("GET /events", { query: { ...WINDOW, search: "Hidden" }, status: 200 });
    expect(anonymous.body.total).toBe(0);
    for (const id of ids) {
      const read = await server.fail("GET /events/{id}", 403, { params: { id } });
      expect(read.body.code).toBe("event-not-accessible");
    }
    expect((await occurrencesOf(ids[0] ?? 0)).map((event) => event.status)).toEqual(Array(5).fill("draft"));
  });

  it("refuses an edit of all (403) when the author may not edit one occurrence, writing nothing", async () => {
    const author = server.users.author;
    const before = await createSeries("Owned", author);
    const others = occurrenceAt(before, 3);
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: others.id },
      body: { author: server.users.editor.id },
      status: 200,
    });
    await server.call("POST /events/{id}", {
      as: author,
      params: { id: occurrenceAt(before, 0).id },
      body: { title: "Owned (this)" },
      status: 200,
    });
    const token = await tokenNow();
    for (const recurrence_scope of ["all", "following"]) {
      await server.fail("POST /events/{id}", 403, {
        as: author,
        params: { id: occurrenceAt(before, 1).id },
        body: { title: "Owned (all)", recurrence_scope },
      });
    }
    expect((await occurrencesOf(others.id)).map((event) => [event.title, event.series_id])).toEqual(
      before.map((event, index) => [index === 0 ? "Owned (this)" : "Owned", event.series_id]),
    );
    expect(await changedSince(token)).toEqual([]);
  });

  it("edits a series of 1,000 occurrences in one request: every one written, one change each", async () => {
    const created = await server.call("POST /events", {
      as: admin(),
      status: 201,
      body: { title: "Daily", ...WEEKLY, recurrence: ["RRULE:FREQ=DAILY;COUNT=1000"] },
    });
    const token = await tokenNow();
    const started = performance.now();
    await server.call("POST /events/{id}", {
      as: admin(),
      params: { id: created.body.id },
      body: { title: "Daily (renamed)", tags: ["daily"], recurrence_scope: "all" },
      status: 200,
    });
    const elapsed = performance.now() - started;
    console.info(`${provider}: an edit of all on 1,000 occurrences took ${Math.round(elapsed)} ms`);
    const seriesId = created.body.series_id ?? 0;
    expect(await server.db.event.count({ where: { seriesId, title: "Daily (renamed)" } })).toBe(1000);
    expect(await server.db.eventTag.count({ where: { event: { seriesId } } })).toBe(1000);
    const { body } = await server.call("GET /changes", { as: admin(), query: { since: token }, status: 200 });
    // One version holds the 1,000 changes: a page never splits a version.
    expect(body.changes.filter((change) => change.action === "updated").length).toBe(1000);
  });
});
