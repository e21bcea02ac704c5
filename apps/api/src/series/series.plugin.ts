import type { DbHandle, SeriesLimits } from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { type SeriesWorker, type SeriesWorkerOptions, startSeriesWorker } from "./series.worker.ts";

/** Runs the series worker while the server listens; a shutdown stops it first. */
export function registerSeriesWorker(
  server: FastifyInstance,
  settings: { handle: DbHandle; limits: SeriesLimits; options: SeriesWorkerOptions },
): void {
  let worker: SeriesWorker | undefined;
  server.addHook("onListen", async () => {
    worker = startSeriesWorker(settings.handle, settings.limits, settings.options, server.log);
  });
  server.addHook("preClose", async () => {
    await worker?.stop();
  });
}
