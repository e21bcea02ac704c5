import { CalendarClientError, createCalendarClient } from "@calendar/client";
import { PROVIDERS } from "@calendar/core/testing";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { useTestServer } from "../support/server.ts";

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error("The call succeeded.");
    },
    (caught: unknown) => caught,
  );
}

describe.each(PROVIDERS)("createCalendarClient against the server (%s)", (provider) => {
  const server = useTestServer(provider);
  const clientOf = (options: { token?: string; language?: "de" | "fr" } = {}) =>
    createCalendarClient({ url: server.origin, ...options });

  it("writes as the user of its token", async () => {
    const editor = server.users.editor;
    const tag = await clientOf({ token: editor.token }).tags.create.mutate({ name: "Free entry" });
    expect(tag).toMatchObject({ name: "Free entry", taxonomy: "post_tag", language: "en" });
    const event = await clientOf({ token: editor.token }).events.create.mutate({
      title: "Open rehearsal",
      start_date: "2030-03-01 18:00:00",
      end_date: "2030-03-01 20:00:00",
    });
    expect(event.author).toBe(String(editor.id));
  });

  it("rejects a write without a token with CalendarClientError rest_forbidden 401", async () => {
    const error = await rejection(clientOf().tags.create.mutate({ name: "Anonymous" }));
    expect(error).toBeInstanceOf(CalendarClientError);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error).toMatchObject({
      code: "rest_forbidden",
      status: 401,
      message: "Sorry, you are not allowed to do that.",
      params: undefined,
    });
  });

  it("rejects a wrong token with CalendarClientError rest_not_logged_in 401", async () => {
    const error = await rejection(clientOf({ token: "cal_wrong" }).tags.list.query({}));
    expect(error).toMatchObject({ code: "rest_not_logged_in", status: 401 });
  });

  it("works in its language unless a call names another", async () => {
    const editor = clientOf({ token: server.users.editor.token, language: "de" });
    const german = await editor.categories.create.mutate({ name: "Konzerte" });
    const french = await editor.categories.create.mutate({ name: "Concerts", ml_language: "fr" });
    expect([german.language, french.language]).toEqual(["de", "fr"]);
    const listed = await editor.categories.list.query({ hide_empty: false });
    expect(listed.categories.map((category) => category.name)).toEqual(["Konzerte"]);
  });

  it("reports a missing record and invalid input with their codes, statuses and parameters", async () => {
    const missing = await rejection(clientOf().events.get.query({ id: 999_999 }));
    expect(missing).toMatchObject({ code: "rest-event-not-found", status: 404 });
    const invalid = await rejection(clientOf().categories.list.query({ per_page: 0 }));
    expect(invalid).toBeInstanceOf(CalendarClientError);
    expect(invalid).toMatchObject({
      code: "rest_invalid_param",
      status: 400,
      params: { per_page: expect.any(String) },
      data: { httpStatus: 400, domain: { code: "rest_invalid_param", status: 400 } },
    });
  });

  it("rejects an id that is not a positive integer with BAD_REQUEST rest_invalid_param naming id", async () => {
    // The id is typed as a number; these are what a JavaScript caller can still send.
    for (const id of ["x", -5] as unknown as number[]) {
      const invalid = await rejection(clientOf().events.get.query({ id }));
      expect(invalid).toMatchObject({
        code: "rest_invalid_param",
        status: 400,
        params: { id: expect.any(String) },
        data: { code: "BAD_REQUEST", httpStatus: 400 },
      });
    }
    // The answer's own HTTP status is the one its body names (on REST, the same id is a 404 rest_no_route).
    const input = encodeURIComponent(JSON.stringify({ id: "x" }));
    expect((await fetch(`${server.origin}/trpc/events.get?input=${input}`)).status).toBe(400);
    expect((await fetch(`${server.origin}/cal/events/v1/events/x`)).status).toBe(404);
  });
});
