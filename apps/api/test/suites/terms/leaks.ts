import type { Role } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { restError, rpcError } from "../../support/errors.ts";
import { useTestServer } from "../../support/server.ts";
import { API, createEventWith, type TermKind, termApi, termsOf } from "./kinds.ts";

const NOT_ACCESSIBLE = restError(403, "event-not-accessible", "The requested event is not accessible");
const NO_LONGER_AVAILABLE = restError(403, "event-no-longer-available", "This event is no longer available");

/**
 * What `post`/`event` must not reveal (docs/behaviour.md, "Categories and tags"): the terms of an event the caller
 * may not read, or whose details a password hides.
 */
export function termLeakSuite(kind: TermKind) {
  describe.each(PROVIDERS)(`${kind.key}: the event filters show no more than the event (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = termApi(server, kind);
    const events: Record<string, number> = {};

    beforeAll(async () => {
      for (const [event, status] of [
        ["published", "publish"],
        ["draft", "draft"],
        ["private", "private"],
        ["protected", "publish"],
        ["trashed", "trash"],
      ] as const) {
        const term = await api.create({ name: `Of ${event}` });
        events[event] = await createEventWith(server.db, kind, [term.id], { status });
      }
      await server.db.event.update({ where: { id: events.protected }, data: { password: "secret" } });
    });

    const as = (role: Role | "anonymous") => (role === "anonymous" ? {} : { as: server.users[role] });
    const names = async (query: Record<string, unknown>, role: Role | "anonymous" = "anonymous") =>
      termsOf((await api.list({ hide_empty: 0, ...query }, as(role))).body).map((term) => term.name);

    it("answers what GET /events/{id} answers for an event the caller may not read, over REST and tRPC", async () => {
      const refused: Array<[string, Role | "anonymous", ReturnType<typeof restError>]> = [
        ["draft", "anonymous", NOT_ACCESSIBLE],
        ["private", "anonymous", NOT_ACCESSIBLE],
        ["draft", "contributor", NOT_ACCESSIBLE],
        ["private", "author", NOT_ACCESSIBLE],
        ["trashed", "anonymous", NO_LONGER_AVAILABLE],
        ["trashed", "editor", NO_LONGER_AVAILABLE],
      ];
      for (const [event, role, expected] of refused) {
        const id = events[event] as number;
        const read = await server.fail("GET /events/{id}", 403, { params: { id }, ...as(role) });
        const byPost = await server.fail(api.route.list, 403, { query: { post: id }, ...as(role) });
        const byEvent = await server.fail(api.route.list, 403, { query: { event: id, hide_empty: 0 }, ...as(role) });
        const rpc = kind.rpc(server.client(role === "anonymous" ? undefined : server.users[role]));
        const viaRpc = await rpcError(rpc.list({ post: id }));
        expect({ event, role, read: read.body, byPost: byPost.body, byEvent: byEvent.body, viaRpc }).toEqual({
          event,
          role,
          read: expected,
          byPost: expected,
          byEvent: expected,
          viaRpc: { status: 403, domain: { code: expected.code, message: expected.message, status: 403 } },
        });
      }
    });

    it("lists the terms of an unpublished event to those who may read it", async () => {
      expect(await names({ post: events.draft }, "editor")).toEqual(["Of draft"]);
      expect(await names({ event: events.private }, "administrator")).toEqual(["Of private"]);
      const rpc = kind.rpc(server.client(server.users.editor));
      expect((await rpc.list({ post: events.draft, hide_empty: false })).items.map((term) => term.name)).toEqual([
        "Of draft",
      ]);
    });

    it("lists no terms of a password-protected event to those who do not see its details", async () => {
      expect(await names({ post: events.protected })).toEqual([]);
      expect(await names({ event: events.protected }, "author")).toEqual([]);
      expect(await names({ post: events.protected }, "editor")).toEqual(["Of protected"]);
      expect(await names({ post: events.published })).toEqual(["Of published"]);
    });

    it("counts no password-protected event, as its password comes and goes through the API", async () => {
      const term = await api.create({ name: "Of a protected write" });
      const countOf = async () =>
        termsOf((await api.list({ hide_empty: 0 })).body).find((item) => item.name === term.name)?.count;
      const admin = { as: server.users.administrator };
      const when = { start_date: "2030-05-01 10:00:00", end_date: "2030-05-01 11:00:00" };
      const created = await server.call("POST /events", {
        ...admin,
        body: { title: "Protected write", ...when, password: "secret", [kind.key]: [term.id] },
      });
      expect(await countOf()).toBe(0);
      const shownByDefault = termsOf((await api.list()).body).map((item) => item.name);
      expect(shownByDefault).not.toContain(term.name);
      const path = `/events/${created.body.id}`;
      await server.rest("PATCH", `${API}${path}`, { ...admin, body: { password: "" } });
      expect(await countOf()).toBe(1);
      await server.rest("PATCH", `${API}${path}`, { ...admin, body: { password: "again" } });
      expect(await countOf()).toBe(0);
    });

    it("counts no draft, private or trashed event, and hides their terms by default", async () => {
      const counts = new Map(termsOf((await api.list({ hide_empty: 0 })).body).map((term) => [term.name, term.count]));
      const unpublished = ["Of draft", "Of private", "Of trashed"];
      expect(unpublished.map((name) => counts.get(name))).toEqual([0, 0, 0]);
      expect(counts.get("Of published")).toBe(1);
      const shown = termsOf((await api.list()).body).map((term) => term.name);
      expect(shown.filter((name) => unpublished.includes(name))).toEqual([]);
    });
  });
}
