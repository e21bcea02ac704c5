import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

const nulIn = (name: string) => ({
  code: "rest_invalid_param",
  message: `Invalid parameter(s): ${name}`,
  data: { status: 400, params: { [name]: "Must not contain the character U+0000." } },
});

describe.each(PROVIDERS)("a NUL character in a path parameter (%s)", (provider) => {
  const server = useTestServer(provider);

  it("is a 400 naming the parameter on every kind of route, never a 500", async () => {
    for (const [path, name] of [
      ["/cal/events/v1/events/by-slug/a%00b.ics", "slug"],
      ["/de/cal/events/v1/events/by-slug/%00.ics", "slug"],
      ["/event/a%00b/", "slug"],
      ["/fr/event/a%00b/", "slug"],
      ["/cal/events/v1/events/by-slug/a%00b", "slug"],
      ["/cal/events/v1/venues/by-slug/a%00b", "slug"],
    ] as const) {
      const response = await server.rest("GET", path);
      expect([path, response.status, response.body]).toEqual([path, 400, nulIn(name)]);
    }
  });

  it("leaves the same routes answering an unknown slug as before", async () => {
    const file = await server.rest("GET", "/cal/events/v1/events/by-slug/ab.ics");
    expect([file.status, file.body]).toEqual([
      400,
      {
        code: "rest_invalid_param",
        message: "Invalid parameter(s): slug",
        data: { status: 400, params: { slug: 'No event has the slug "ab" in this language.' } },
      },
    ]);
    const page = await server.rest("GET", "/event/ab/");
    expect([page.status, page.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
  });
});
