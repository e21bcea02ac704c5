import {
  ANONYMOUS,
  type Context,
  type DbHandle,
  DomainError,
  getEventBySlug,
  type Site,
  scopeOf,
} from "@calendar/core";
import type { FastifyInstance } from "fastify";
import { renderEventNotFoundPage, renderEventPage } from "./event-page.render.ts";
import { sendPage } from "./public-page.html.ts";
import { REST_BASES, requestOrigin } from "./rest/base-paths.ts";

export interface EventPageOptions {
  handle: DbHandle;
  site: Site;
}

/**
 * `/event/<slug>/` (and under each language prefix): the public page an event's `url` points to when no
 * `CALENDAR_SITE_URL` is set. Read as an anonymous visitor: drafts, private and password-protected events are 404.
 */
export function registerEventPages(server: FastifyInstance, options: EventPageOptions): void {
  for (const base of REST_BASES) {
    server.get<{ Params: { slug: string } }>(`${base.prefix}/event/:slug/`, async (request, reply) => {
      const context: Context = {
        db: options.handle.db,
        provider: options.handle.provider,
        site: options.site,
        actor: ANONYMOUS,
        pathLanguage: base.language,
        apiRoot: `${requestOrigin(request)}${base.path}`,
        rest: null,
      };
      const scope = scopeOf(context, undefined);
      try {
        const event = await getEventBySlug(scope, { slug: request.params.slug, password: undefined });
        return sendPage(reply, 200, renderEventPage(event, `${base.path}/events/${event.id}.ics`));
      } catch (error) {
        if (error instanceof DomainError) return sendPage(reply, 404, renderEventNotFoundPage(scope.language));
        throw error;
      }
    });
  }
}
