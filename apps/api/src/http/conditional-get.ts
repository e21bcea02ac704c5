import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isHeadRequest } from "./head.ts";

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

function notModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  const ifNoneMatch = request.headers["if-none-match"];
  if (ifNoneMatch !== undefined) return tagListMatches(ifNoneMatch, etag);
  const since = httpDateSeconds(request.headers["if-modified-since"]);
  const modified = httpDateSeconds(reply.getHeader("last-modified")?.toString());
  return since !== undefined && modified !== undefined && modified <= since;
}

/**
 * Every successful GET (and HEAD) gets a weak ETag of its body, unless the route set one; `If-None-Match` (or,
 * without it, `If-Modified-Since` against the route's `Last-Modified`) turns the answer into a 304 with the same
 * headers and no body. Registered before compression, so the tag is that of the identity body.
 */
export function registerConditionalGet(server: FastifyInstance): void {
  server.addHook("onSend", async (request, reply, payload) => {
    if (request.method !== "GET" && !isHeadRequest(request)) return payload;
    if (reply.statusCode !== 200 || !(typeof payload === "string" || Buffer.isBuffer(payload))) return payload;
    const etag = reply.getHeader("etag")?.toString() ?? weakEtagOf(payload);
    reply.header("etag", etag);
    if (!notModified(request, reply, etag)) return payload;
    reply.code(304).removeHeader("content-type");
    // Fastify's HEAD route hook reads a string payload; a GET's 304 goes out without Content-Length.
    return isHeadRequest(request) ? "" : null;
  });
}
