import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { invalidParams } from "../support/errors.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";

const API = "/cal/events/v1";

function listGiven(name: string) {
  return invalidParams({ [name]: `${name} takes one value, not a list.` });
}

describe.each(PROVIDERS)("REST: scalar parameters sent as lists (%s)", (provider) => {
  const server = useTestServer(provider);

  it.each([
    ["/events", "ml_language[]=de", "ml_language"],
    ["/events", "page[]=2", "page"],
    ["/events", "search[]=x", "search"],
    ["/events", "per_page[]=5", "per_page"],
    ["/events", "start_date[]=2030-01-01", "start_date"],
    ["/venues", "search[]=x", "search"],
    ["/categories", "hide_empty[]=1", "hide_empty"],
    ["/events/1", "ml_language[]=de", "ml_language"],
  ])("GET %s?%s is a 400 naming the parameter", async (path, query, name) => {
    const response = await server.rest<RestErrorBody>("GET", `${API}${path}`, { query });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(listGiven(name));
  });

  it("refuses a list for the scalar of a DELETE too, deleting nothing", async () => {
    const created = await server.call("POST /tags", {
      as: server.users.administrator,
      body: { name: "Kept" },
      status: 201,
    });
    const response = await server.fail("DELETE /tags/{id}", 400, {
      params: { id: created.body.id },
      as: server.users.administrator,
      query: "ml_language[]=en",
    });
    expect(response.body).toEqual(listGiven("ml_language"));
    expect(await server.db.tag.count({ where: { id: created.body.id } })).toBe(1);
  });

  it("still takes lists where a parameter is a list (status[]=…, include[]=…)", async () => {
    const events = await server.call("GET /events", { query: "status[]=publish", status: 200 });
    expect(events.body.events).toEqual([]);
    const tag = await server.call("POST /tags", { as: server.users.administrator, body: { name: "Listed" } });
    const tags = await server.call("GET /tags", { query: `include[]=${tag.body.id}&hide_empty=0`, status: 200 });
    expect(tags.body.tags.map((item) => item.name)).toEqual(["Listed"]);
  });

  it("still takes the scalar as one value (page=1, ml_language=de)", async () => {
    await server.call("GET /events", { query: "page=1&ml_language=de", status: 200 });
  });
});
