import {
  ANONYMOUS,
  type Context,
  type DbHandle,
  DomainError,
  getEventBySlug,
  type Site,
  scopeOf,
} from "@calendar/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { renderEventNotFoundPage, renderEventPage } from "./event-page.render.ts";
import { sendPage } from "./public-page.html.ts";
import { REST_BASES, type RestBase, requestOrigin } from "./rest/base-paths.ts";

export interface EventPageOptions {
  handle: DbHandle;
  site: Site;
}

/** The context of a public page: an anonymous visitor, in the language of the page's base. */
export function visitorContext(options: EventPageOptions, base: RestBase, request: FastifyRequest): Context {
  return {
    db: options.handle.db,
    provider: options.handle.provider,
    site: options.site,
    actor: ANONYMOUS,
    pathLanguage: base.language,
    apiRoot: `${requestOrigin(request)}${base.path}`,
    rest: null,
  };
}

/**
 * `/event/<slug>/` (and under each language prefix): the public page an event's `url` points to when no
 * `CALENDAR_SITE_URL` is set. Read as an anonymous visitor: drafts, private and password-protected events are 404.
 */
export function registerEventPages(server: FastifyInstance, options: EventPageOptions): void {
  for (const base of REST_BASES) {
    server.get<{ Params: { slug: string } }>(`${base.prefix}/event/:slug/`, async (request, reply) => {
      const scope = scopeOf(visitorContext(options, base, request), undefined);
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
