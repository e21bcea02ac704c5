import type { Role } from "@calendar/core";
import { PROVIDERS, type TestUser } from "@calendar/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { FORBIDDEN_MESSAGE, invalidParams, restError } from "../../support/errors.ts";
import { useTestServer } from "../../support/server.ts";
import { createEventWith, type TermKind, type TermLike, termApi } from "./kinds.ts";

const forbiddenBody = (status: number) => restError(status, "rest_forbidden", FORBIDDEN_MESSAGE);

const DENIED: Role[] = ["subscriber", "contributor", "author"];
const ALLOWED: Role[] = ["editor", "administrator"];

/** Who may write categories and tags (manage_categories), and what anybody may read. */
export function termSecuritySuite(kind: TermKind) {
  describe.each(PROVIDERS)(`${kind.key}: access (%s)`, (provider) => {
    const server = useTestServer(provider);
    const api = termApi(server, kind);
    const { route } = api;
    let target: TermLike;

    beforeAll(async () => {
      target = await api.create({ name: "Guarded", description: "as it was" });
    });

    const as = (role: Role | "anonymous"): { as?: TestUser } =>
      role === "anonymous" ? {} : { as: server.users[role] };
    const onTarget = () => ({ params: { id: target.id } });

    it("answers anonymous writes with 401 and changes nothing", async () => {
      const before = await kind.rows(server.db);
      const body = { name: "Anonymous" };
      for (const response of [
        await server.fail(route.create, 401, { body }),
        await server.fail(route.item("POST"), 401, { ...onTarget(), body }),
        await server.fail(route.item("PUT"), 401, { ...onTarget(), body }),
        await server.fail(route.item("PATCH"), 401, { ...onTarget(), body }),
        await server.fail(route.item("DELETE"), 401, onTarget()),
      ]) {
        expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: forbiddenBody(401) });
      }
      expect(await kind.rows(server.db)).toEqual(before);
    });

    it.each(DENIED)("answers writes by a %s with 403 and changes nothing", async (role) => {
      const before = await kind.rows(server.db);
      const body = { name: `By ${role}` };
      for (const response of [
        await server.fail(route.create, 403, { ...as(role), body }),
        await server.fail(route.item("POST"), 403, { ...onTarget(), ...as(role), body }),
        await server.fail(route.item("DELETE"), 403, { ...onTarget(), ...as(role) }),
      ]) {
        expect({ role, status: response.status, body: response.body }).toEqual({
          role,
          status: 403,
          body: forbiddenBody(403),
        });
      }
      expect(await kind.rows(server.db)).toEqual(before);
    });

    it.each(ALLOWED)("lets an %s create, update and delete", async (role) => {
      const created = await api.create({ name: `By ${role}` }, as(role));
      const updated = await api.update(created.id, { description: "edited" }, as(role), "PATCH");
      expect(updated.status).toBe(200);
      expect(updated.body.description).toBe("edited");
      const removed = await api.remove(created.id, as(role));
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual(updated.body);
    });

    it("applies the same rules over tRPC: UNAUTHORIZED for anonymous, FORBIDDEN for an author", async () => {
      for (const [user, status, code] of [
        [undefined, 401, "UNAUTHORIZED"],
        [server.users.author, 403, "FORBIDDEN"],
        [server.users.subscriber, 403, "FORBIDDEN"],
      ] as const) {
        const error = await kind
          .rpc(server.client(user))
          .create({ name: "Over tRPC" })
          .catch((caught: unknown) => caught as { data: { code: string; httpStatus: number; domain: unknown } });
        expect(error).toMatchObject({
          data: { code, httpStatus: status, domain: { code: "rest_forbidden", status, message: FORBIDDEN_MESSAGE } },
        });
      }
      const created = await kind.rpc(server.client(server.users.editor)).create({ name: "Over tRPC" });
      expect(created.name).toBe("Over tRPC");
    });

    it("validates before checking permissions: a bad request is 400 even without the capability", async () => {
      const unknownId = invalidParams({ id: `No ${kind.noun} has this id.` });
      const unknown = { params: { id: 999_999 } };
      expect((await server.fail(route.create, 400, { body: { name: "" } })).body).toEqual(
        invalidParams({ name: "Must not be empty." }),
      );
      expect((await server.fail(route.item("POST"), 400, { ...unknown, body: { name: "x" } })).body).toEqual(unknownId);
      expect((await server.fail(route.item("DELETE"), 400, { ...unknown, ...as("subscriber") })).body).toEqual(
        unknownId,
      );
      await server.fail(route.create, 400, { ...as("contributor"), body: { name: "x", translation_of: 999_999 } });
      await server.fail(route.item("DELETE"), 400, unknown);
    });

    it("checks the capability before duplicate names: an anonymous duplicate is 401, not term_exists", async () => {
      expect((await server.fail(route.create, 401, { body: { name: "Guarded" } })).body).toEqual(forbiddenBody(401));
    });

    it("lets anybody read lists and terms, counting only published events", async () => {
      await createEventWith(server.db, kind, [target.id], { status: "draft" });
      await createEventWith(server.db, kind, [target.id], { status: "private" });
      for (const role of ["anonymous", "subscriber", "administrator"] as const) {
        const term = await api.get(target.id, as(role));
        expect({ role, status: term.status, count: term.body.count }).toEqual({ role, status: 200, count: 0 });
        const list = await api.list({}, as(role));
        expect({ role, status: list.status, total: list.body.total }).toEqual({ role, status: 200, total: 0 });
      }
    });
  });
}
