import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isHeadRequest } from "./head.ts";
import { versionTagFor } from "./version-tags.ts";

/** A weak validator of a body: equal bodies, equal tags, whatever the encoding they are sent with. */
export function weakEtagOf(body: string | Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

/** The opaque part of a tag, for the weak comparison (RFC 9110 §8.8.3.2). */
function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

/** Does a list of tags (`If-None-Match`, `If-Match`) name this one, or `*`? */
export function tagListMatches(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  const wanted = opaque(etag);
  return header.split(",").some((tag) => opaque(tag) === wanted);
}

/** Seconds of an HTTP date, or undefined when it is none. */
export function httpDateSeconds(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
}

/**
 * Does the client's copy still hold: its `If-None-Match` names the tag, or (without it) its `If-Modified-Since` is
 * no earlier than the answer's `Last-Modified`?
 */
export function isNotModified(request: IncomingHttpHeaders, etag: string, lastModified: string | undefined): boolean {
  const ifNoneMatch = request["if-none-match"];
  if (ifNoneMatch !== undefined) return tagListMatches(ifNoneMatch, etag);
  const since = httpDateSeconds(request["if-modified-since"]);
  if (since === undefined) return false;
  const modified = httpDateSeconds(lastModified);
  return modified !== undefined && modified <= since;
}

/**
 * What describes a body, which a 304 has none of (RFC 9110 §15.4.5): left out of every 304, so that one made
 * before rendering (registerVersionTags) and one made after it carry the same headers.
 */
export const NOT_IN_304 = ["content-type", "link", "x-wp-total", "x-wp-totalpages", "x-tec-total", "x-tec-totalpages"];

/** A successful read answered with a body in memory (streams, such as the explorer's files, are left alone). */
function isTaggable(request: FastifyRequest, reply: FastifyReply, payload: unknown): payload is string | Buffer {
  return (
    (request.method === "GET" || isHeadRequest(request)) &&
    reply.statusCode === 200 &&
    (typeof payload === "string" || Buffer.isBuffer(payload))
  );
}

/**
 * Every successful GET (and HEAD) gets a weak ETag, unless the route set one: its version tag when it has one
 * (lists, the index, the document; see `registerVersionTags`), else the hash of its body.
 */
export function registerEntityTags(server: FastifyInstance): void {
  server.addHook("onSend", async (request, reply, payload) => {
    if (isTaggable(request, reply, payload) && !reply.hasHeader("etag")) {
      reply.header("etag", versionTagFor(request) ?? weakEtagOf(payload));
    }
    return payload;
  });
}

/**
 * `If-None-Match` (or, without it, `If-Modified-Since` against the route's `Last-Modified`) turns a tagged answer
 * into a 304 with the same headers and no body. Registered after the hooks that add headers to a 200 (cache
 * headers, the response cache keeping the body) and before compression.
 */
export function registerNotModified(server: FastifyInstance): void {
  server.addHook("onSend", async (request, reply, payload) => {
    if (!isTaggable(request, reply, payload)) return payload;
    const etag = reply.getHeader("etag");
    if (typeof etag !== "string") return payload;
    if (!isNotModified(request.headers, etag, reply.getHeader("last-modified")?.toString())) return payload;
    reply.code(304);
    for (const name of NOT_IN_304) reply.removeHeader(name);
    // Fastify's HEAD route hook reads a string payload; a GET's 304 goes out without Content-Length.
    return isHeadRequest(request) ? "" : null;
  });
}
