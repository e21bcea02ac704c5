import type { OutgoingHttpHeaders } from "node:http";
import { type Encoding, type EncodingChoices, isCompressibleBody } from "./compression.ts";
import { NOT_IN_304 } from "./conditional-get.ts";

/** Headers an answer is not replayed with (Node and Fastify write these per answer). */
const NOT_REPLAYED = new Set(["content-length", "date", "connection", "keep-alive", "transfer-encoding"]);

interface Variant {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/**
 * An answer as the cache keeps it: the identity body and the headers every hook gave it, with what a hit writes
 * prepared once (the headers of each encoding, the compressed bodies on first use, the 304's headers), so that a
 * hit only picks and writes.
 */
export class CachedAnswer {
  readonly etag: string;
  readonly lastModified: string | undefined;
  /** The headers of a 200 before compression, as the hooks after the cache expect them. */
  readonly headers: Record<string, string>;
  readonly notModifiedHeaders: OutgoingHttpHeaders;
  /** Would the compression plugin compress it for a client that accepts an encoding? */
  readonly compressible: boolean;
  private readonly identity: Variant;
  private readonly encoded = new Map<Exclude<Encoding, "identity">, Variant>();

  /** The route that answered (the request log's `route`, for the hits the cache front answers). */
  readonly route: string | undefined;

  constructor(
    readonly version: number,
    readonly minute: number,
    replyHeaders: Record<string, unknown>,
    readonly body: Buffer,
    private readonly choices: EncodingChoices,
    about: { route?: string | undefined } = {},
  ) {
    this.route = about.route;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(replyHeaders)) {
      if (value !== undefined && !NOT_REPLAYED.has(name)) headers[name] = String(value);
    }
    this.headers = headers;
    this.etag = headers.etag ?? "";
    this.lastModified = headers["last-modified"];
    this.notModifiedHeaders = Object.fromEntries(
      Object.entries(headers).filter(([name]) => !NOT_IN_304.includes(name)),
    );
    this.compressible = isCompressibleBody(headers["content-type"], body);
    this.identity = { headers: { ...headers, "content-length": body.length }, body };
  }

  /** Bytes it holds at most: the identity body and its compressed copies (each smaller than it). */
  get size(): number {
    return Math.max(1, 2 * this.body.length);
  }

  /** The body and headers of a 200 in an encoding, compressed as the compression plugin does (once). */
  variant(encoding: Encoding): Variant {
    if (encoding === "identity" || !this.compressible) return this.identity;
    const known = this.encoded.get(encoding);
    if (known) return known;
    const body = this.choices.compressed(this.body, encoding);
    const variant = { headers: { ...this.headers, "content-encoding": encoding, "content-length": body.length }, body };
    this.encoded.set(encoding, variant);
    return variant;
  }
}
