import {
  type Actor,
  appRouter,
  createCallerFactory,
  type DbHandle,
  DomainError,
  type PresentRecord,
  type Site,
} from "@calendar/core";
import { TRPCError } from "@trpc/server";

const createCaller = createCallerFactory(appRouter);

/** Reads records for the deliveries: an administrator, so that every record is shown whole. */
const WEBHOOK_READER: Actor = { kind: "user", id: 0, login: "calendar-webhooks", role: "administrator" };

/** A 4xx of a record that is gone (deleted since the change, or trashed where that hides it). */
function isGone(error: unknown): boolean {
  const cause = error instanceof TRPCError ? error.cause : error;
  return cause instanceof DomainError && cause.status >= 400 && cause.status < 500;
}

/** A delivery's `object`: the record as the REST API under `apiRoot` answers it to an administrator, or null. */
export function webhookRecordPresenter(handle: DbHandle, site: Site, apiRoot: string): PresentRecord {
  const caller = createCaller({
    db: handle.db,
    provider: handle.provider,
    actor: WEBHOOK_READER,
    site,
    pathLanguage: null,
    apiRoot,
    rest: null,
  });
  const readers = {
    event: (id: number) => caller.events.get({ id }),
    venue: (id: number) => caller.venues.get({ id }),
    organizer: (id: number) => caller.organizers.get({ id }),
    category: (id: number) => caller.categories.get({ id }),
    tag: (id: number) => caller.tags.get({ id }),
  };
  return async (type, id) => {
    try {
      return await readers[type](id);
    } catch (error) {
      if (isGone(error)) return null;
      throw error;
    }
  };
}
