import type { Role } from "@calendar/core";
import fc from "fast-check";
import type { FuzzFixture, Method, Operation } from "./fuzz-operations.ts";
import {
  breakerOf,
  extraParameter,
  type FuzzValue,
  genericBreaker,
  noiseOf,
  textNoise,
  UNKNOWN_ID,
} from "./fuzz-values.ts";
import type { RawRequest, RawResponse } from "./http.ts";

/** Who sends a request: nobody, a wrong credential, or a user of a role. */
export type Actor = "anonymous" | "badCredential" | Role;

const ACTORS: readonly Actor[] = [
  "anonymous",
  "badCredential",
  "subscriber",
  "contributor",
  "author",
  "editor",
  "administrator",
];

/**
 * Writes from these always fail (401/403), whatever they send. (An operation with `roles` refuses every call, reads
 * too, from anyone else.)
 */
const UNPRIVILEGED = new Set<Actor>(["anonymous", "badCredential", "subscriber"]);

const BAD_CREDENTIALS = [
  "Bearer cal_wrong",
  `Basic ${Buffer.from("editor1:cal_wrong").toString("base64")}`,
  `Basic ${Buffer.from("nobody:cal_wrong").toString("base64")}`,
  "Basic !!!",
  "Digest abc",
  "Bearer",
  `Bearer ${"x".repeat(4_000)}`,
];

/** Breaks the request itself rather than one parameter (REST only). */
type Structural = "invalidJson" | "unsupportedMediaType" | "badPercentEscape" | "wrongMethod";

/** How `{id}`/`{slug}` is filled: the fixture record, or something that names no record or is not valid. */
type Target = { kind: "fixture" } | { kind: "broken"; rest: string; trpc: unknown };

export interface FuzzCase {
  operation: Operation;
  transport: "rest" | "trpc";
  actor: Actor;
  credential: number;
  method: Method;
  /** A language prefix of the REST base (`/de`), or none. */
  prefix: string;
  encoding: "json" | "form" | "query";
  listStyle: "repeat" | "brackets" | "indices" | "csv";
  badBytes: boolean;
  target: Target;
  params: Record<string, FuzzValue>;
  structural: Structural | undefined;
  /** What makes it invalid; a request with any must be refused. */
  breakers: string[];
}

const REST_ROOT = "/cal/events/v1";
const PREFIXES = ["", "", "", "/de", "/fr", "/zh-hans", "/en"];

const BROKEN_IDS: Array<{ rest: string; trpc: unknown }> = [
  { rest: "abc", trpc: "abc" },
  { rest: "-1", trpc: -1 },
  { rest: "1.5", trpc: 1.5 },
  { rest: "%00", trpc: "\u0000" },
  { rest: "99999999999", trpc: 99_999_999_999 },
  { rest: String(UNKNOWN_ID), trpc: UNKNOWN_ID },
  { rest: "%zz", trpc: "%zz" },
];
const BROKEN_SLUGS: Array<{ rest: string; trpc: unknown }> = [
  { rest: "No-Such-Slug", trpc: "No-Such-Slug" },
  { rest: "a%00b", trpc: "a\u0000b" },
  { rest: "%zz", trpc: "" },
  { rest: "%E0%A4%A", trpc: 5 },
  { rest: encodeURIComponent("' OR 1=1 --"), trpc: "' OR 1=1 --" },
  { rest: "x".repeat(6_000), trpc: "x".repeat(6_000) },
];

/** Does a typed value reach the server as it is? (JSON bodies of POST/PUT/PATCH, and tRPC.) */
function keepsTypes(transport: FuzzCase["transport"], method: Method, encoding: FuzzCase["encoding"]): boolean {
  return transport === "trpc" || (encoding === "json" && method !== "GET" && method !== "DELETE");
}

function structuralsFor(operation: Operation): Structural[] {
  const collection = !operation.path.includes("{");
  return [
    "badPercentEscape",
    ...(operation.methods.some((method) => method !== "GET") ? (["invalidJson", "unsupportedMediaType"] as const) : []),
    ...(collection ? (["wrongMethod"] as const) : []),
  ];
}

interface Shape {
  transport: FuzzCase["transport"];
  actor: Actor;
  credential: number;
  method: Method;
  prefix: string;
  encoding: FuzzCase["encoding"];
  listStyle: FuzzCase["listStyle"];
  /** Adds bytes that are not UTF-8, and broken percent-escapes, to the query or body (REST). */
  badBytes: boolean;
}

function shapeOf(operation: Operation): fc.Arbitrary<Shape> {
  const bodies = operation.methods.some((method) => method !== "GET");
  return fc.record({
    transport: operation.procedure ? fc.constantFrom("rest", "rest", "rest", "trpc") : fc.constant("rest"),
    // Half the calls of an operation for a few roles come from them, so that its parameters are checked past the
    // role check as often as the other operations' are.
    actor: operation.roles
      ? fc.oneof(fc.constantFrom(...operation.roles), fc.constantFrom(...ACTORS))
      : fc.constantFrom(...ACTORS),
    credential: fc.nat(BAD_CREDENTIALS.length - 1),
    method: fc.constantFrom(...operation.methods),
    prefix: fc.constantFrom(...PREFIXES),
    encoding: bodies ? fc.constantFrom("json", "json", "form", "query") : fc.constant("query"),
    listStyle: fc.constantFrom("repeat", "brackets", "indices", "csv"),
    badBytes: fc.boolean(),
  }) as fc.Arbitrary<Shape>;
}

type Breaker =
  | { kind: "field"; name: string; value: FuzzValue }
  | { kind: "missing"; name: string }
  | { kind: "structural"; structural: Structural }
  | { kind: "target"; target: Target };

function breakerFor(operation: Operation, shape: Shape): fc.Arbitrary<Breaker> {
  const typed = keepsTypes(shape.transport, shape.method, shape.encoding);
  const names = Object.keys(operation.fields);
  const fieldBreaker = fc
    .constantFrom(...names)
    .chain((name) => {
      const kind = operation.fields[name];
      return (kind ? breakerOf(kind) : genericBreaker).map((value) => ({ name, value }));
    })
    .filter(({ value }) => typed || !value.jsonOnly)
    .map(({ name, value }): Breaker => ({ kind: "field", name, value }));
  const options: Array<fc.Arbitrary<Breaker>> = [fieldBreaker, fieldBreaker, fieldBreaker];
  if (operation.required.length > 0) {
    options.push(fc.constantFrom(...operation.required).map((name): Breaker => ({ kind: "missing", name })));
  }
  if (shape.transport === "rest") {
    options.push(
      fc.constantFrom(...structuralsFor(operation)).map((structural): Breaker => ({ kind: "structural", structural })),
    );
  }
  if (operation.target) {
    const broken = operation.path.includes("{slug}") ? BROKEN_SLUGS : BROKEN_IDS;
    options.push(
      fc.constantFrom(...broken).map((target): Breaker => ({ kind: "target", target: { kind: "broken", ...target } })),
    );
  }
  return fc.oneof(...options);
}

function noiseFor(operation: Operation): fc.Arbitrary<[string, FuzzValue]> {
  return fc.constantFrom(...Object.keys(operation.fields)).chain((name) => {
    const kind = operation.fields[name];
    return (kind ? noiseOf(kind) : textNoise).map((value): [string, FuzzValue] => [name, value]);
  });
}

/** Requests for one operation: its base parameters with noise, unknown parameters and often breakers. */
export function fuzzCases(operation: Operation): fc.Arbitrary<FuzzCase> {
  return shapeOf(operation).chain((shape) =>
    fc
      .record({
        noise: fc.array(noiseFor(operation), { maxLength: 3 }),
        extras: fc.array(extraParameter, { maxLength: 2 }),
        breakers: fc.oneof(
          { weight: 2, arbitrary: fc.constant([] as Breaker[]) },
          { weight: 5, arbitrary: fc.array(breakerFor(operation, shape), { minLength: 1, maxLength: 2 }) },
        ),
      })
      .map(({ noise, extras, breakers }): FuzzCase => {
        const typed = keepsTypes(shape.transport, shape.method, shape.encoding);
        const params: Record<string, FuzzValue> = Object.fromEntries(
          Object.entries(operation.base).map(([name, value]) => [name, { value }]),
        );
        for (const [name, value] of [...noise, ...extras]) {
          if (typed || !value.jsonOnly) params[name] = value;
        }
        const missing: string[] = [];
        let target: Target = { kind: "fixture" };
        let structural: Structural | undefined;
        const described: string[] = [];
        for (const breaker of breakers) {
          if (breaker.kind === "field") {
            params[breaker.name] = breaker.value;
            described.push(`${breaker.name}=${preview(breaker.value.value)}`);
          } else if (breaker.kind === "missing") {
            missing.push(breaker.name);
            described.push(`without ${breaker.name}`);
          } else if (breaker.kind === "structural") {
            if (structural) continue;
            structural = breaker.structural;
            described.push(breaker.structural);
          } else {
            target = breaker.target;
            described.push(`target ${preview(breaker.target.kind === "broken" ? breaker.target.rest : "")}`);
          }
        }
        for (const name of missing) delete params[name];
        const refusedActor = operation.roles
          ? !(operation.roles as readonly Actor[]).includes(shape.actor)
          : UNPRIVILEGED.has(shape.actor) && operation.write;
        if (refusedActor) described.push(`as ${shape.actor}`);
        if (shape.actor === "badCredential" && operation.authenticates) described.push("bad credential");
        return { operation, ...shape, target, params, structural, breakers: [...new Set(described)] };
      }),
  );
}

export function preview(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value)?.slice(0, 200) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 60)}…(${text.length})` : text;
}

// Encoding

/** Percent-encodes the UTF-8 of a string (a lone surrogate becomes U+FFFD, as any client would send it). */
function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/gu, "\uFFFD"));
}

function scalarText(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/** `key=value` pairs as WordPress clients send them, with arrays in one of the styles the API reads. */
function pairsOf(key: string, value: unknown, style: FuzzCase["listStyle"], depth = 0): Array<[string, string]> {
  if (Array.isArray(value)) {
    const scalars = value.every((item) => typeof item !== "object" || item === null);
    if (style === "csv" && scalars && value.length > 0) return [[key, value.map(scalarText).join(",")]];
    if (style === "repeat" && scalars) return value.map((item): [string, string] => [key, scalarText(item)]);
    return value.flatMap((item, index) =>
      pairsOf(style === "brackets" && scalars ? `${key}[]` : `${key}[${index}]`, item, style, depth + 1),
    );
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([name, item]) => pairsOf(`${key}[${name}]`, item, style, depth + 1));
  }
  return [[key, scalarText(value)]];
}

function urlEncoded(params: Record<string, FuzzValue>, style: FuzzCase["listStyle"]): string {
  return Object.entries(params)
    .flatMap(([key, { value }]) => pairsOf(key, value, style))
    .map(([key, value]) => `${percentEncode(key).replace(/%5B/g, "[").replace(/%5D/g, "]")}=${percentEncode(value)}`)
    .join("&");
}

function plainValues(params: Record<string, FuzzValue>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([key, { value }]) => [key, value]));
}

/**
 * `JSON.stringify` turns a `__proto__` own key into a plain member; a string built from the entries keeps
 * every key as generated.
 */
function jsonText(values: Record<string, unknown>): string {
  return `{${Object.entries(values)
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? "null"}`)
    .join(",")}}`;
}

function authorizationOf(fuzzCase: FuzzCase, tokens: Record<Role, string>): Record<string, string> {
  if (fuzzCase.actor === "anonymous") return {};
  if (fuzzCase.actor === "badCredential") {
    return { authorization: BAD_CREDENTIALS[fuzzCase.credential] ?? "Bearer cal_wrong" };
  }
  return { authorization: `Bearer ${tokens[fuzzCase.actor]}` };
}

function restPath(fuzzCase: FuzzCase, fixture: FuzzFixture): string {
  const { operation, target } = fuzzCase;
  let path = operation.path;
  if (operation.target) {
    const record = fixture[operation.target];
    const id = target.kind === "broken" ? target.rest : String(record.id);
    const slug = target.kind === "broken" ? target.rest : percentEncode("slug" in record ? record.slug : "");
    path = path.replace("{id}", id).replace("{slug}", slug);
  }
  if (fuzzCase.structural === "badPercentEscape") path += "%zz";
  return `${fuzzCase.prefix}${REST_ROOT}${path}`;
}

function restMethod(fuzzCase: FuzzCase): Method {
  if (fuzzCase.structural !== "wrongMethod") return fuzzCase.method;
  return fuzzCase.operation.methods.includes("POST") ? "PATCH" : "PUT";
}

/** Percent-escapes of bytes that are not UTF-8, and escapes that are not escapes, under an unknown name. */
const BAD_QUERY_BYTES = "fuzz_bytes=%FF%FE%C3%28&fuzz_escape=%E0%A4%A&%zz=%";

/** A body with a string of bytes that are not UTF-8 in an unknown member (JSON) or parameter (form). */
function withBadBytes(text: string, form: boolean): Buffer {
  const bytes = Buffer.from([0xff, 0xfe, 0xc3, 0x28]);
  if (form) return Buffer.concat([Buffer.from(`${text}${text ? "&" : ""}fuzz_bytes=`), bytes]);
  const opening = text === "{}" ? '{"fuzz_bytes":"' : `${text.slice(0, -1)},"fuzz_bytes":"`;
  return Buffer.concat([Buffer.from(opening), bytes, Buffer.from('"}')]);
}

function restRequest(fuzzCase: FuzzCase, fixture: FuzzFixture, tokens: Record<Role, string>): RawRequest {
  const method = restMethod(fuzzCase);
  const headers = authorizationOf(fuzzCase, tokens);
  const path = restPath(fuzzCase, fixture);
  const bodyBreaker = fuzzCase.structural === "invalidJson" || fuzzCase.structural === "unsupportedMediaType";
  const inBody = method !== "GET" && (fuzzCase.encoding !== "query" || bodyBreaker);
  const encoded = inBody ? "" : urlEncoded(fuzzCase.params, fuzzCase.listStyle);
  const query = fuzzCase.badBytes && !inBody ? [encoded, BAD_QUERY_BYTES].filter(Boolean).join("&") : encoded;
  const url = query ? `${path}?${query}` : path;
  if (!inBody) return { method, path: url, headers };
  if (fuzzCase.structural === "invalidJson") {
    return { method, path: url, headers: { ...headers, "content-type": "application/json" }, body: '{"title":' };
  }
  const form = fuzzCase.encoding === "form";
  const text = form ? urlEncoded(fuzzCase.params, fuzzCase.listStyle) : jsonText(plainValues(fuzzCase.params));
  const body = fuzzCase.badBytes ? withBadBytes(text, form) : text;
  const contentType =
    fuzzCase.structural === "unsupportedMediaType"
      ? "text/plain"
      : form
        ? "application/x-www-form-urlencoded"
        : "application/json; charset=utf-8";
  return { method, path: url, headers: { ...headers, "content-type": contentType }, body };
}

function trpcRequest(fuzzCase: FuzzCase, fixture: FuzzFixture, tokens: Record<Role, string>): RawRequest {
  const { operation, target } = fuzzCase;
  const input = plainValues(fuzzCase.params);
  if (operation.target) {
    const record = fixture[operation.target];
    const key = operation.path.includes("{slug}") ? "slug" : "id";
    input[key] = target.kind === "broken" ? target.trpc : key === "slug" && "slug" in record ? record.slug : record.id;
  }
  const headers = authorizationOf(fuzzCase, tokens);
  const path = `/trpc/${operation.name}`;
  if (operation.procedure === "query") {
    return { method: "GET", path: `${path}?input=${percentEncode(jsonText(input))}`, headers };
  }
  return { method: "POST", path, headers: { ...headers, "content-type": "application/json" }, body: jsonText(input) };
}

/** The HTTP request of a case. */
export function requestOf(fuzzCase: FuzzCase, fixture: FuzzFixture, tokens: Record<Role, string>): RawRequest {
  return fuzzCase.transport === "trpc"
    ? trpcRequest(fuzzCase, fixture, tokens)
    : restRequest(fuzzCase, fixture, tokens);
}

// Checking

/** Must the server refuse it? (Something in it is invalid, or it writes without the right to.) */
export function mustFail(fuzzCase: FuzzCase): boolean {
  return fuzzCase.breakers.length > 0;
}

const STACK_TRACE = /\n\s+at\s|"stack"\s*:|\.[cm]?[jt]s:\d+:\d+/;

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface Envelope {
  code?: unknown;
  message?: unknown;
  data?: { status?: unknown };
  error?: { data?: { httpStatus?: unknown; domain?: { code?: unknown; status?: unknown } } };
}

function isRestEnvelope(body: Envelope, status: number): boolean {
  return typeof body.code === "string" && typeof body.message === "string" && body.data?.status === status;
}

function isTrpcEnvelope(body: Envelope, status: number): boolean {
  const data = body.error?.data;
  return data?.httpStatus === status && typeof data.domain?.code === "string" && data.domain.status === status;
}

/** What is wrong with a response, if anything. */
export function problemOf(fuzzCase: FuzzCase, response: RawResponse): string | undefined {
  const { status, text } = response;
  if (status >= 500) return `${status}`;
  if (status < 200 || (status >= 300 && status < 400)) return `unexpected status ${status}`;
  if (STACK_TRACE.test(text)) return "stack trace in the body";
  const body = parse(text) as Envelope | undefined;
  if (body === undefined) return "not JSON";
  if (status < 400)
    return mustFail(fuzzCase) ? `accepted (${status}) though ${fuzzCase.breakers.join("; ")}` : undefined;
  const enveloped = isRestEnvelope(body, status) || (fuzzCase.transport === "trpc" && isTrpcEnvelope(body, status));
  return enveloped ? undefined : "error without the envelope";
}

/** A request as a short line, to report it. */
export function describeCase(fuzzCase: FuzzCase, request: RawRequest): string {
  const body = request.body === undefined ? "" : ` body ${preview(String(request.body))}`;
  return `${fuzzCase.operation.name} [${fuzzCase.transport}, ${fuzzCase.actor}] ${request.method} ${preview(request.path)}${body}`;
}
