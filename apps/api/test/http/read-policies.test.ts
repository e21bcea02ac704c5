import { appRouter, restRouter } from "@calendar/core";
import { describe, expect, it } from "vitest";
import { itemReadResolver } from "../../src/http/write-preconditions.ts";
import { restOperations } from "../../src/rest/operations.ts";

interface ProcedureLike {
  _def: { type: string; meta?: { http?: unknown; openapi?: { path: string } } };
}

/** The record each resource's item paths show, as the change feed names it. */
const RECORDS: Record<string, string> = {
  events: "event",
  venues: "venue",
  organizers: "organizer",
  categories: "category",
  tags: "tag",
};

describe("the HTTP policy of every read", () => {
  it("is declared by every query of the tRPC router, with a REST operation or not", () => {
    // At run time the procedures are keyed by their dotted path (`events.list`).
    const procedures = Object.entries(appRouter._def.procedures as Record<string, unknown>) as [
      string,
      ProcedureLike,
    ][];
    const queries = procedures.filter(([, procedure]) => procedure._def.type === "query");
    expect(queries.length).toBeGreaterThan(10);
    for (const [name, procedure] of queries) {
      expect({ name, http: procedure._def.meta?.http }).toEqual({ name, http: expect.any(Object) });
    }
  });

  it("tags the REST lists (an event's occurrences too) by the change version, items and feeds by their body, and names each item's record", () => {
    const reads = restOperations(restRouter).filter((operation) => operation.method === "GET");
    expect(reads.length).toBeGreaterThan(10);
    for (const { path, http } of reads) {
      const resource = path.split("/")[1] ?? "";
      const record = RECORDS[resource];
      if (record === undefined) {
        expect({ path, http }).toEqual({ path, http: { cache: "body", record: null } });
      } else if (path.split("/").at(-1)?.includes("{")) {
        expect({ path, http }).toEqual({ path, http: { cache: "body", record } });
      } else {
        expect({ path, http }).toEqual({ path, http: { cache: "version", movesWithClock: expect.any(Function) } });
      }
    }
  });

  it("checks a write's preconditions against the GET of its path, with that GET's record and query parameters", () => {
    const itemReadOf = itemReadResolver(restRouter);
    expect(
      ["/cal/events/v1/events/12", "/de/cal/events/v1/venues/by-slug/hall", "/cal/events/v1/tags/3/"].map(itemReadOf),
    ).toEqual([
      { type: "event", params: ["password", "ml_language"] },
      { type: "venue", params: ["ml_language", "password"] },
      { type: "tag", params: ["ml_language"] },
    ]);
    for (const path of [
      "/cal/events/v1/events",
      "/cal/events/v1/webhooks/4",
      "/cal/events/v1/webhooks/4/rotate-secret",
    ]) {
      expect([path, itemReadOf(path).type]).toEqual([path, null]);
    }
  });
});
