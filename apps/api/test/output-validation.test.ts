import { type OutputValidation, type Provider, publicProcedure, router } from "@calendar/core";
import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useTestServer } from "./support/server.ts";

/**
 * Responses against their output schemas: checked exactly under test (a response that does not match, or that
 * parsing would change, is an error), not at all in production (`outputValidation: "off"`).
 */

const Shape = z.object({ id: z.number(), title: z.string() });

/** A fresh router per server: the mode is set on the procedures themselves. */
function shapesRouter() {
  const read = (path: `/${string}`, value: () => unknown) =>
    publicProcedure
      .meta({ openapi: { method: "GET", path, protect: false }, http: { cache: "body", record: null } })
      .input(z.object({}))
      .output(Shape)
      .query(() => value() as z.infer<typeof Shape>);
  return router({
    matching: read("/shapes/matching", () => ({ id: 1, title: "Concert" })),
    wrongType: read("/shapes/wrong-type", () => ({ id: 1, title: 2 })),
    extraKey: read("/shapes/extra-key", () => ({ id: 1, title: "Concert", secret: "x" })),
    reordered: read("/shapes/reordered", () => ({ title: "Concert", id: 1 })),
  });
}

function useShapesServer(provider: Provider, outputValidation?: OutputValidation) {
  const shapes = shapesRouter();
  return useTestServer(provider, {
    routers: { rest: shapes, app: shapes },
    ...(outputValidation ? { outputValidation } : {}),
  });
}

describe.each(PROVIDERS)("output validation (%s)", (provider) => {
  describe("by default (tests, development)", () => {
    const server = useShapesServer(provider);

    it("sends a response that matches its schema as the procedure returned it", async () => {
      const { status, text } = await server.rest("GET", "/cal/events/v1/shapes/matching");
      expect({ status, text }).toEqual({ status: 200, text: '{"id":1,"title":"Concert"}' });
    });

    it.each([
      ["a value of the wrong type", "/cal/events/v1/shapes/wrong-type"],
      ["a key the schema does not have (parsing would strip it)", "/cal/events/v1/shapes/extra-key"],
      ["keys in another order than the schema's (parsing would reorder them)", "/cal/events/v1/shapes/reordered"],
    ])("fails over REST and tRPC for %s", async (_case, path) => {
      // A schema mismatch keeps zod's error as its cause, as tRPC's own check does, and the error mapping reads
      // any zod error as a bad parameter (400); a response changed by parsing is a 500.
      const status = path.endsWith("wrong-type") ? 400 : 500;
      expect((await server.rest("GET", path)).status).toBe(status);
      const name = path.endsWith("wrong-type") ? "wrongType" : path.endsWith("extra-key") ? "extraKey" : "reordered";
      const response = await fetch(`${server.origin}/trpc/${name}?input=${encodeURIComponent("{}")}`);
      // Read to the end: an unread body keeps the connection busy, and the server's close waits for it.
      await response.text();
      expect(response.status).toBe(status);
    });
  });

  describe("off (production)", () => {
    const server = useShapesServer(provider, "off");

    it("sends every response as the procedure returned it, unchecked", async () => {
      const wrong = await server.rest("GET", "/cal/events/v1/shapes/wrong-type");
      expect({ status: wrong.status, text: wrong.text }).toEqual({ status: 200, text: '{"id":1,"title":2}' });
      const reordered = await server.rest("GET", "/cal/events/v1/shapes/reordered");
      expect(reordered.text).toBe('{"title":"Concert","id":1}');
    });
  });
});
