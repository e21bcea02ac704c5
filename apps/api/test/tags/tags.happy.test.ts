import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, expectTypeOf, it } from "vitest";
import { termHappySuite } from "../suites/terms/happy.ts";
import { TAGS, termApi, termsOf } from "../suites/terms/kinds.ts";
import { useTestServer } from "../support/server.ts";

termHappySuite(TAGS);

describe.each(PROVIDERS)("tags: flat terms (%s)", (provider) => {
  const server = useTestServer(provider);
  const api = termApi(server, TAGS);

  it("answers tags without a parent key and ignores a parent field or filter", async () => {
    const tag = await api.create({ name: "Outdoor", parent: 5 });
    expect(tag).toEqual(api.expected({ id: tag.id, name: "Outdoor", slug: "outdoor" }));
    expect(tag).not.toHaveProperty("parent");
    const { status, body } = await api.list({ parent: 5, hide_empty: 0 });
    expect(status).toBe(200);
    expect(termsOf(body).map((item) => item.id)).toEqual([tag.id]);
  });

  it("types tags without parent over tRPC", async () => {
    const created = await server.client(server.users.editor).tags.create.mutate({ name: "Typed tag" });
    expectTypeOf(created).not.toHaveProperty("parent");
    expectTypeOf(created.taxonomy).toEqualTypeOf<"post_tag">();
    expect(created.taxonomy).toBe("post_tag");
  });
});
