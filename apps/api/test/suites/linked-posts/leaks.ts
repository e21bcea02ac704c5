import type { Role } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { restError, rpcError } from "../../support/errors.ts";
import { useTestServer } from "../../support/server.ts";
import { insertEvent, type LinkedPostKind, linkedPostApi, nameOf, recordsOf } from "./kinds.ts";

const NOT_ACCESSIBLE = restError(403, "event-not-accessible", "The requested event is not accessible");
const NO_LONGER_AVAILABLE = restError(403, "event-no-longer-available", "This event is no longer available");

/**
 * What the list filters of venues and organizers must not reveal (docs/behaviour.md, "Venues and organizers"): the
 * links of events the caller may not read or whose details a password hides, records the caller may not read, and
 * the protected details of records.
 */
export function linkedPostLeakSuite(kind: LinkedPostKind) {
  const name = kind.singular;

  describe.each(PROVIDERS)(`${kind.plural}: the event filters show no more than the event (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const events: Record<string, number> = {};

    beforeAll(async () => {
      const db = server.db;
      events.published = await insertEvent(db);
      events.draft = await insertEvent(db, { status: "draft" });
      events.private = await insertEvent(db, { status: "private" });
      events.protected = await insertEvent(db);
      await db.event.update({ where: { id: events.protected }, data: { password: "secret" } });
      events.trashed = await insertEvent(db, { status: "trash" });
      const records: Array<[string, string, string?]> = [
        ["At published", "published"],
        ["Draft at published", "published", "draft"],
        ["At draft", "draft"],
        ["At private", "private"],
        ["At protected", "protected"],
        ["At trashed", "trashed"],
      ];
      for (const [recordName, event, status] of records) {
        const record = await api.create({ [name]: recordName, ...(status ? { status } : {}) });
        await kind.link(db, events[event] as number, record.id);
      }
    });

    const as = (role: Role | "anonymous") => (role === "anonymous" ? {} : { as: server.users[role] });

    it("answers what GET /events/{id} answers for an event the caller may not read, over REST and tRPC", async () => {
      const refused: Array<[string, Role | "anonymous", ReturnType<typeof restError>]> = [
        ["draft", "anonymous", NOT_ACCESSIBLE],
        ["private", "anonymous", NOT_ACCESSIBLE],
        ["draft", "subscriber", NOT_ACCESSIBLE],
        ["private", "author", NOT_ACCESSIBLE],
        ["trashed", "anonymous", NO_LONGER_AVAILABLE],
        ["trashed", "editor", NO_LONGER_AVAILABLE],
      ];
      for (const [event, role, expected] of refused) {
        const id = events[event] as number;
        const read = await server.fail("GET /events/{id}", 403, { params: { id }, ...as(role) });
        const listed = await server.fail(`GET /${kind.plural}`, 403, { query: { event: id }, ...as(role) });
        const rpc = kind.trpc(server.client(role === "anonymous" ? undefined : server.users[role]));
        const viaRpc = await rpcError(rpc.list.query({ event: id }));
        expect({ event, role, read: read.body, listed: listed.body, viaRpc }).toEqual({
          event,
          role,
          read: expected,
          listed: expected,
          viaRpc: { status: 403, domain: { code: expected.code, message: expected.message, status: 403 } },
        });
      }
    });

    it("lists the links of an unpublished event to those who may read it", async () => {
      expect(await api.names({ event: events.draft as number }, { as: server.users.editor })).toEqual(["At draft"]);
      expect(await api.names({ event: events.private as number }, { as: server.users.administrator })).toEqual([
        "At private",
      ]);
    });

    it("lists no links of a password-protected event to those who do not see its details", async () => {
      expect(await api.names({ event: events.protected as number })).toEqual([]);
      expect(await api.names({ event: events.protected as number }, { as: server.users.author })).toEqual([]);
      expect(await api.names({ event: events.protected as number }, { as: server.users.editor })).toEqual([
        "At protected",
      ]);
    });

    it("lists through event=<id> only the records the caller may read", async () => {
      expect(await api.names({ event: events.published as number })).toEqual(["At published"]);
      const rpc = kind.trpc(server.client());
      expect(recordsOf(await rpc.list.query({ event: events.published })).map(nameOf)).toEqual(["At published"]);
      expect(await api.names({ event: events.published as number }, { as: server.users.editor })).toEqual([
        "Draft at published",
        "At published",
      ]);
    });

    it("counts for has_events only the events whose links the caller sees", async () => {
      expect(await api.names({ has_events: "true" })).toEqual(["At published"]);
      expect(await api.names({ has_events: "false" })).toEqual([
        "At trashed",
        "At protected",
        "At private",
        "At draft",
      ]);
      const rpc = kind.trpc(server.client());
      expect(recordsOf(await rpc.list.query({ has_events: true })).map(nameOf)).toEqual(["At published"]);
      expect(await api.names({ has_events: "true" }, { as: server.users.editor })).toEqual([
        "At protected",
        "At private",
        "Draft at published",
        "At published",
      ]);
    });

    it("counts for only_with_upcoming only the events whose links the caller sees", async () => {
      expect(await api.names({ only_with_upcoming: "true" })).toEqual(["At published"]);
      const rpc = kind.trpc(server.client());
      expect(recordsOf(await rpc.list.query({ only_with_upcoming: true })).map(nameOf)).toEqual(["At published"]);
      expect(await api.names({ only_with_upcoming: "true" }, { as: server.users.editor })).toEqual([
        "At protected",
        "At private",
        "At draft",
        "Draft at published",
        "At published",
      ]);
    });
  });

  describe.each(PROVIDERS)(`${kind.plural}: search does not read protected details (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = linkedPostApi(server, kind);
    const [field, value] = Object.entries(kind.details)[0] as [string, string];
    const word = value.split(/[^\p{L}\p{N}]+/u).find((part) => part.length > 3) ?? value;

    beforeAll(async () => {
      await api.create({ [name]: "Hidden Place", description: "Behind the wall", [field]: value, password: "pw" });
      await api.create({ [name]: "Open Place", description: "In plain sight" });
    });

    it("finds a protected record by its name only, unless the caller sees its details", async () => {
      expect(await api.names({ search: "wall" })).toEqual([]);
      expect(await api.names({ search: word })).toEqual([]);
      expect(await api.names({ search: "hidden" })).toEqual(["Hidden Place"]);
      expect(await api.names({ search: "plain sight" })).toEqual(["Open Place"]);
      expect(await api.names({ search: "wall" }, { as: server.users.contributor })).toEqual([]);
      expect(await api.names({ search: "wall" }, { as: server.users.editor })).toEqual(["Hidden Place"]);
      expect(await api.names({ search: word }, { as: server.users.administrator })).toEqual(["Hidden Place"]);
    });

    it("searches the same over tRPC", async () => {
      const anonymous = kind.trpc(server.client());
      expect((await anonymous.list.query({ search: "wall" })).total).toBe(0);
      expect(recordsOf(await anonymous.list.query({ search: "hidden place" })).map(nameOf)).toEqual(["Hidden Place"]);
      const editor = kind.trpc(server.client(server.users.editor));
      expect(recordsOf(await editor.list.query({ search: "wall" })).map(nameOf)).toEqual(["Hidden Place"]);
    });
  });
}
