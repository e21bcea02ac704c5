import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { CalendarClientError, createCalendarClient, REQUEST_FAILED } from "../src/index.ts";

interface Sent {
  method: string;
  path: string;
  authorization: string | null;
  /** The inputs of the batch, in call order. */
  inputs: unknown[];
}

function inputsOf(url: URL, body: string | undefined): unknown[] {
  const batch = JSON.parse(body ?? url.searchParams.get("input") ?? "{}") as Record<string, unknown>;
  return Object.keys(batch)
    .sort()
    .map((key) => batch[key]);
}

/** A fetch that records each request and answers every call of it with `answer`. */
function recordingFetch(answer: (sent: Sent) => Response = (sent) => Response.json(sent.inputs.map(() => OK))) {
  const sent: Sent[] = [];
  const fetch = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const target = new URL(String(url));
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === "string" ? init.body : undefined;
    const request: Sent = {
      method: init?.method ?? "GET",
      path: target.pathname,
      authorization: headers.get("authorization"),
      inputs: inputsOf(target, body),
    };
    sent.push(request);
    return answer(request);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

const OK = { result: { data: { ok: true } } };

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error("The call succeeded.");
    },
    (caught: unknown) => caught,
  );
}

describe("createCalendarClient", () => {
  it("calls <url>/trpc and sends the token as a Bearer Authorization header", async () => {
    const { fetch, sent } = recordingFetch();
    const client = createCalendarClient({ url: "http://calendar.test/", token: "cal_secret", fetch });
    await client.categories.get.query({ id: 3 });
    await client.tags.create.mutate({ name: "Free" });
    expect(sent).toEqual([
      { method: "GET", path: "/trpc/categories.get", authorization: "Bearer cal_secret", inputs: [{ id: 3 }] },
      { method: "POST", path: "/trpc/tags.create", authorization: "Bearer cal_secret", inputs: [{ name: "Free" }] },
    ]);
  });

  it("sends no Authorization header without a token", async () => {
    const { fetch, sent } = recordingFetch();
    await createCalendarClient({ url: "http://calendar.test", fetch }).tags.get.query({ id: 1 });
    expect(sent.map((request) => request.authorization)).toEqual([null]);
  });

  it("adds the client's language to every call that gives none, and keeps the language a call gives", async () => {
    const { fetch, sent } = recordingFetch();
    const client = createCalendarClient({ url: "http://calendar.test", language: "de", fetch });
    await Promise.all([
      client.events.list.query({ search: "Jazz" }),
      client.events.list.query({ search: "Jazz", ml_language: "fr" }),
      client.events.list.query({ search: "Jazz", ml_language: undefined }),
    ]);
    await client.venues.create.mutate({ venue: "Halle" });
    expect(sent.flatMap((request) => request.inputs)).toEqual([
      { search: "Jazz", ml_language: "de" },
      { search: "Jazz", ml_language: "fr" },
      { search: "Jazz", ml_language: "de" },
      { venue: "Halle", ml_language: "de" },
    ]);
  });

  it("sends inputs unchanged without a language", async () => {
    const { fetch, sent } = recordingFetch();
    await createCalendarClient({ url: "http://calendar.test", fetch }).events.get.query({ id: 7 });
    expect(sent.flatMap((request) => request.inputs)).toEqual([{ id: 7 }]);
  });
});

describe("CalendarClientError", () => {
  const notFound = {
    error: {
      message: "Event with ID 9 does not exist.",
      code: -32004,
      data: {
        code: "NOT_FOUND",
        httpStatus: 404,
        path: "events.get",
        domain: { code: "rest-event-not-found", message: "Event with ID 9 does not exist.", status: 404 },
      },
    },
  };
  const invalid = {
    error: {
      message: "Invalid parameter(s): per_page",
      code: -32600,
      data: {
        code: "BAD_REQUEST",
        httpStatus: 400,
        path: "events.list",
        domain: {
          code: "rest_invalid_param",
          message: "Invalid parameter(s): per_page",
          status: 400,
          params: { per_page: "Too big: expected number to be <=100" },
        },
      },
    },
  };

  it("is what a call rejects with when the server answers an error: its code, status and message", async () => {
    const { fetch } = recordingFetch(() => Response.json([notFound], { status: 404 }));
    const error = await rejection(
      createCalendarClient({ url: "http://calendar.test", fetch }).events.get.query({ id: 9 }),
    );
    expect(error).toBeInstanceOf(CalendarClientError);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error).toMatchObject({
      name: "CalendarClientError",
      code: "rest-event-not-found",
      status: 404,
      message: "Event with ID 9 does not exist.",
      params: undefined,
      data: { httpStatus: 404, domain: notFound.error.data.domain },
    });
  });

  it("carries the parameters at fault of invalid input", async () => {
    const { fetch } = recordingFetch(() => Response.json([invalid], { status: 400 }));
    const error = await rejection(
      createCalendarClient({ url: "http://calendar.test", fetch }).events.list.query({ per_page: 500 }),
    );
    expect(error).toMatchObject({
      code: "rest_invalid_param",
      status: 400,
      params: { per_page: "Too big: expected number to be <=100" },
    });
  });

  it("gives each call of a batch its own error", async () => {
    const { fetch } = recordingFetch(() => Response.json([notFound, OK], { status: 207 }));
    const client = createCalendarClient({ url: "http://calendar.test", fetch });
    const [failed, succeeded] = await Promise.allSettled([
      client.events.get.query({ id: 9 }),
      client.events.get.query({ id: 1 }),
    ]);
    expect(failed).toMatchObject({ status: "rejected", reason: { code: "rest-event-not-found", status: 404 } });
    expect(succeeded).toEqual({ status: "fulfilled", value: { ok: true } });
  });

  it("reports a network failure as request_failed with status 0", async () => {
    const fetch = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof globalThis.fetch;
    const error = await rejection(
      createCalendarClient({ url: "http://calendar.test", fetch }).tags.get.query({ id: 1 }),
    );
    expect(error).toBeInstanceOf(CalendarClientError);
    expect(error).toMatchObject({ code: REQUEST_FAILED, status: 0, message: "fetch failed", params: undefined });
  });

  it("reports a JSON answer that is not the calendar's as request_failed with its HTTP status", async () => {
    const { fetch } = recordingFetch(() => Response.json({ code: "not_found" }, { status: 404 }));
    const error = await rejection(
      createCalendarClient({ url: "http://calendar.test", fetch }).tags.get.query({ id: 1 }),
    );
    expect(error).toBeInstanceOf(CalendarClientError);
    expect(error).toMatchObject({
      code: REQUEST_FAILED,
      status: 404,
      message: "Unable to transform response from server",
    });
  });

  it("reports an answer that is not JSON as request_failed with status 0", async () => {
    const { fetch } = recordingFetch(() => new Response("<html>Bad gateway</html>", { status: 502 }));
    const error = await rejection(
      createCalendarClient({ url: "http://calendar.test", fetch }).tags.get.query({ id: 1 }),
    );
    expect(error).toBeInstanceOf(CalendarClientError);
    expect(error).toMatchObject({ code: REQUEST_FAILED, status: 0 });
  });
});
