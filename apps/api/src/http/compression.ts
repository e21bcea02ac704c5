import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/**
 * brotli or gzip, as `Accept-Encoding` prefers, for compressible answers of 1 KiB or more (JSON, the document, the
 * explorer's script and style). Request bodies are not decompressed: clients send them plain, as before.
 */
export async function registerCompression(server: FastifyInstance): Promise<void> {
  await server.register(compress, { encodings: ["br", "gzip"], threshold: 1024, globalDecompression: false });
}
