import { PROVIDERS } from "@calendar/core/testing";
import { describe, expect, it } from "vitest";
import { invalidParam, restFailure, trpcFailure } from "../support/errors.ts";
import type { RestErrorBody } from "../support/rest-routes.ts";
import { useTestServer } from "../support/server.ts";
import { ROOT } from "./support.ts";

/** Values that are not one of the four languages, as a query value or a JSON value. */
const INVALID_VALUES: ReadonlyArray<string | string[]> = ["de-DE", " de", ["de", "fr"], "xx", "", "DE", "EN"];
const REASON = "ml_language is not one of zh-hans, en, fr, and de.";
const INVALID_LANGUAGE = invalidParam("ml_language", REASON);

const DATES = { start_date: "2030-01-01 10:00:00", end_date: "2030-01-01 12:00:00" };

/** A create body that is valid but for the language, per resource. */
const CREATE_BODIES = {
  events: { title: "Valid", ...DATES },
  venues: { venue: "Valid" },
  organizers: { organizer: "Valid" },
  categories: { name: "Valid" },
  tags: { name: "Valid" },
} as const;

type Resource = keyof typeof CREATE_BODIES;
const RESOURCES = Object.keys(CREATE_BODIES) as Resource[];
const POSTS = ["events", "venues", "organizers"] as const;

/** Every REST operation under a base, with a body that is valid but for the language where one is needed. */
function restOperations(base: string): Array<{ method: string; path: string; body?: Record<string, unknown> }> {
  return [
    { method: "GET", path: base },
    { method: "GET", path: `${base}/doc` },
    ...RESOURCES.flatMap((resource) => [
      { method: "GET", path: `${base}/${resource}` },
      { method: "POST", path: `${base}/${resource}`, body: CREATE_BODIES[resource] },
      { method: "GET", path: `${base}/${resource}/1` },
      ...["POST", "PUT", "PATCH"].map((method) => ({ method, path: `${base}/${resource}/1`, body: {} })),
      { method: "DELETE", path: `${base}/${resource}/1` },
    ]),
    ...POSTS.flatMap((resource) => [
      { method: "GET", path: `${base}/${resource}/by-slug/x` },
      ...["POST", "PUT", "PATCH"].map((method) => ({ method, path: `${base}/${resource}/by-slug/x`, body: {} })),
      { method: "DELETE", path: `${base}/${resource}/by-slug/x` },
    ]),
  ];
}

describe.each(PROVIDERS)("languages: invalid ml_language values (%s)", (provider) => {
  const server = useTestServer(provider);

  // Every value on the bare base; under a prefix (which an invalid parameter must not fall back to), two of them.
  const bases: Array<[string, ReadonlyArray<string | string[]>]> = [
    [ROOT, INVALID_VALUES],
    [`/de${ROOT}`, ["de-DE", ["de", "fr"]]],
    [`/zh-hans${ROOT}`, ["xx", ""]],
  ];
  it.each(bases)(
    "answers every REST operation under %s with 400 rest_invalid_param naming ml_language, before any auth",
    async (base, values) => {
      const requests = restOperations(base).flatMap((operation) => values.map((value) => ({ ...operation, value })));
      const answers = await Promise.all(
        requests.map(async ({ value, ...operation }) => {
          const response = await server.rest<RestErrorBody>(operation.method, operation.path, {
            query: { ml_language: value },
            ...(operation.body ? { body: operation.body } : {}),
          });
          return { ...operation, value, failure: restFailure(response), data: response.body.data };
        }),
      );
      const data = { status: 400, params: { ml_language: REASON } };
      expect(answers).toEqual(requests.map((request) => ({ ...request, failure: INVALID_LANGUAGE, data })));
    },
  );

  it("rejects an invalid ml_language in a JSON or form body too", async () => {
    for (const value of INVALID_VALUES) {
      const json = await server.fail("POST /tags", 400, {
        base: `/fr${ROOT}`,
        as: server.users.editor,
        body: { name: "Valid", ml_language: value },
      });
      expect({ value, failure: restFailure(json) }).toEqual({ value, failure: INVALID_LANGUAGE });
    }
    const form = await server.fail("POST /venues", 400, {
      as: server.users.editor,
      form: "venue=Valid&ml_language=de-DE",
    });
    expect(restFailure(form)).toEqual(INVALID_LANGUAGE);
    expect(await server.db.tag.count()).toBe(0);
    expect(await server.db.venue.count()).toBe(0);
  });

  it("rejects an invalid ml_language on every tRPC procedure with the same error", async () => {
    const procedures = server.procedures();
    for (const value of INVALID_VALUES) {
      const ml_language = value;
      const calls: Array<[string, Promise<unknown>]> = [];
      const query = (path: string, input: object) => calls.push([path, procedures.query(path, input)]);
      const mutation = (path: string, input: object) => calls.push([path, procedures.mutation(path, input)]);
      for (const resource of RESOURCES) {
        query(`${resource}.list`, { ml_language });
        query(`${resource}.get`, { id: 1, ml_language });
        mutation(`${resource}.create`, { ...CREATE_BODIES[resource], ml_language });
        mutation(`${resource}.update`, { id: 1, ml_language });
        mutation(`${resource}.delete`, { id: 1, ml_language });
      }
      for (const resource of POSTS) {
        query(`${resource}.getBySlug`, { slug: "x", ml_language });
        mutation(`${resource}.updateBySlug`, { slug: "x", ml_language });
        mutation(`${resource}.deleteBySlug`, { slug: "x", ml_language });
      }
      const failures = await Promise.all(
        calls.map(async ([procedure, call]) => ({ procedure, value, failure: await trpcFailure(call) })),
      );
      expect(failures).toEqual(calls.map(([procedure]) => ({ procedure, value, failure: INVALID_LANGUAGE })));
    }
  });
});
