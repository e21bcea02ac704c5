import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

const ENCODINGS = ["br", "gzip"] as const;
export type Encoding = (typeof ENCODINGS)[number] | "identity";

/** Bodies smaller than this go out as they are. */
export const COMPRESSION_THRESHOLD = 1024;
/** The plugin's brotli quality (4: 11 would cost several times the CPU for a few per cent). */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
/** Distinct `Accept-Encoding` values remembered at most (clients send a handful). */
const MAX_REMEMBERED = 256;

/**
 * The encoding the compression plugin picked for each `Accept-Encoding` value, as seen on its answers of
 * compressible bodies: the response cache answers hits without the plugin, and leaves a value the plugin has not
 * answered yet to it, so the two always agree. Also compresses a body as the plugin does.
 */
export class EncodingChoices {
  private readonly chosen = new Map<string, Encoding>();

  /** The encoding for these request headers, or undefined while the plugin has not chosen for them yet. */
  choiceFor(headers: { "accept-encoding"?: string | undefined; "x-no-compression"?: unknown }): Encoding | undefined {
    if (headers["x-no-compression"] !== undefined) return "identity";
    const accepted = headers["accept-encoding"];
    return accepted === undefined ? "identity" : this.chosen.get(accepted);
  }

  /** What the plugin did with a compressible body for a request with this `Accept-Encoding`. */
  remember(accepted: string, contentEncoding: unknown): void {
    const encoding: Encoding = contentEncoding === "br" || contentEncoding === "gzip" ? contentEncoding : "identity";
    if (this.chosen.has(accepted)) return;
    if (this.chosen.size >= MAX_REMEMBERED) this.chosen.clear();
    this.chosen.set(accepted, encoding);
  }

  compressed(body: Buffer, encoding: Exclude<Encoding, "identity">): Buffer {
    return encoding === "br" ? brotliCompressSync(body, BROTLI_OPTIONS) : gzipSync(body);
  }
}

/**
 * brotli or gzip, as `Accept-Encoding` prefers, for compressible answers of 1 KiB or more (JSON, the document, the
 * explorer's script and style). Request bodies are not decompressed: clients send them plain, as before.
 */
export async function registerCompression(server: FastifyInstance): Promise<void> {
  await server.register(compress, {
    encodings: [...ENCODINGS],
    threshold: COMPRESSION_THRESHOLD,
    brotliOptions: BROTLI_OPTIONS,
    globalDecompression: false,
  });
}

/** A body the plugin compresses when the client accepts an encoding (JSON or text, over the threshold). */
export function isCompressibleBody(contentType: unknown, body: Buffer): boolean {
  return typeof contentType === "string" && /json|^text\//.test(contentType) && body.length >= COMPRESSION_THRESHOLD;
}
