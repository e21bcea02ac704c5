import type { IncomingMessage } from "node:http";
import { type Db, readerOf } from "@calendar/core";
import type { FastifyRequest } from "fastify";
import type { ChangeVersionReader } from "./response-cache.ts";

// Same statement on both providers; the version comes back as text, which both drivers hand over unchanged.
const VERSION_SQL = `SELECT CAST("version" AS TEXT) FROM "ChangeVersion" WHERE "id" = 1`;

/**
 * The change version read straight on the driver (a prepared primary-key read), not through Prisma: it runs
 * on every request the response cache answers, where Prisma's per-query cost would be most of the work.
 */
export function changeVersionReader(db: Db): ChangeVersionReader {
  return async () => Number((await readerOf(db).json(VERSION_SQL, [])) ?? 0);
}

// Keyed by Node's request, so that a version read before Fastify (the cache front) serves its hooks too.
const versions = new WeakMap<IncomingMessage, Promise<number>>();

/** The change version as of a request's start, read once for all the hooks that need it. */
export function versionAtStartOf(request: FastifyRequest, read: ChangeVersionReader): Promise<number> {
  let version = versions.get(request.raw);
  if (!version) {
    version = read();
    versions.set(request.raw, version);
  }
  return version;
}

/** Hands a version read as the request arrived, before Fastify saw it, to the hooks (see `versionAtStartOf`). */
export function keepVersionOf(request: IncomingMessage, version: Promise<number>): void {
  versions.set(request, version);
}
