import {
  appRouter,
  createCallerFactory,
  type DbHandle,
  DEFAULT_LANGUAGE,
  DomainError,
  type RouterOutputs,
  type Site,
} from "@calendar/core";
import { TRPCError } from "@trpc/server";
import type { FastifyInstance } from "fastify";
import { visitorContext } from "./event-page.ts";
import { escapeHtml, sendPage } from "./public-page.html.ts";
import { type RecordPageContent, renderRecordNotFoundPage, renderRecordPage } from "./record-page.render.ts";
import { REST_BASES } from "./rest/base-paths.ts";

const createCaller = createCallerFactory(appRouter);
type Caller = ReturnType<typeof createCaller>;

/** How many upcoming events a record's page lists, the first to end first. */
export const RECORD_PAGE_EVENTS = 20;

/** The events that have not ended yet, however far ahead (a relative date lifts the list's default window). */
const UPCOMING = { ends_after: "now", strict_dates: true } as const;

type EventFilter = { venue: number[] } | { organizer: number[] } | { categories: number[] } | { tags: number[] };

/** What a page shows of its record, and the events list filter that names it. */
type LoadedRecord = Omit<RecordPageContent, "events" | "label"> & { filter: EventFilter };

interface RecordPageKind {
  label: string;
  /** The record with this slug in the request's language, as an anonymous visitor reads it; null when there is none. */
  load(caller: Caller, slug: string): Promise<LoadedRecord | null>;
}

function link(url: string | undefined, text = url): string | undefined {
  return url ? `<a href="${escapeHtml(url)}">${escapeHtml(text ?? url)}</a>` : undefined;
}

/** The pairs whose value is present, text escaped unless it is already HTML. */
function detailsOf(pairs: Array<[string, string | undefined, "html"?]>): Array<[string, string]> {
  return pairs.flatMap(([term, value, kind]) =>
    value ? [[term, kind === "html" ? value : escapeHtml(value)] as [string, string]] : [],
  );
}

function venueRecord(venue: RouterOutputs["venues"]["get"]): LoadedRecord {
  const place = [venue.address, venue.zip, venue.city, venue.stateprovince, venue.country].filter(Boolean).join(", ");
  return {
    name: venue.venue,
    language: venue.language,
    description: venue.description ?? "",
    details: detailsOf([
      ["Address", place],
      ["Phone", venue.phone],
      ["Website", link(venue.website), "html"],
    ]),
    jsonLd: venue.json_ld ?? { "@context": "http://schema.org", "@type": "Place", name: venue.venue, url: venue.url },
    filter: { venue: [venue.id] },
  };
}

function organizerRecord(organizer: RouterOutputs["organizers"]["get"]): LoadedRecord {
  return {
    name: organizer.organizer,
    language: organizer.language,
    description: organizer.description ?? "",
    details: detailsOf([
      ["Phone", organizer.phone],
      ["Email", organizer.email ? link(`mailto:${organizer.email}`, organizer.email) : undefined, "html"],
      ["Website", link(organizer.website), "html"],
    ]),
    jsonLd: organizer.json_ld ?? {
      "@context": "http://schema.org",
      "@type": "Organization",
      name: organizer.organizer,
      url: organizer.url,
    },
    filter: { organizer: [organizer.id] },
  };
}

function termRecord(
  term: Pick<RouterOutputs["tags"]["get"], "name" | "language" | "description" | "url">,
  filter: EventFilter,
): LoadedRecord {
  return {
    name: term.name,
    language: term.language,
    description: term.description,
    details: [],
    jsonLd: {
      "@context": "http://schema.org",
      "@type": "DefinedTerm",
      name: term.name,
      ...(term.description ? { description: term.description } : {}),
      url: term.url,
    },
    filter,
  };
}

/** One entry per kind of page: what it is called and how its record is found. */
const RECORD_PAGE_KINDS = {
  venue: {
    label: "Venue",
    load: async (caller, slug) => venueRecord(await caller.venues.getBySlug({ slug })),
  },
  organizer: {
    label: "Organizer",
    load: async (caller, slug) => organizerRecord(await caller.organizers.getBySlug({ slug })),
  },
  category: {
    label: "Category",
    load: async (caller, slug) => {
      const [category] = (await caller.categories.list({ slug, hide_empty: false })).categories;
      return category ? termRecord(category, { categories: [category.id] }) : null;
    },
  },
  tag: {
    label: "Tag",
    load: async (caller, slug) => {
      const [tag] = (await caller.tags.list({ slug, hide_empty: false })).tags;
      return tag ? termRecord(tag, { tags: [tag.id] }) : null;
    },
  },
} satisfies Record<string, RecordPageKind>;

/** A domain error of the read (an unknown slug, a record the visitor may not read), whichever way the caller wraps it. */
function isDomainError(error: unknown): boolean {
  return (error instanceof TRPCError ? error.cause : error) instanceof DomainError;
}

export interface RecordPageOptions {
  handle: DbHandle;
  site: Site;
}

/**
 * `/venue/<slug>/`, `/organizer/<slug>/`, `/category/<slug>/` and `/tag/<slug>/` (and under each language prefix):
 * the public pages the records' `url`s point to when no `CALENDAR_SITE_URL` is set, like the event page. Read as
 * an anonymous visitor: a draft or private venue or organizer is a 404, a password-protected one shows what the API
 * shows of it (its name); the upcoming events are those the events list shows that visitor.
 */
export function registerRecordPages(server: FastifyInstance, options: RecordPageOptions): void {
  for (const base of REST_BASES) {
    for (const [kind, spec] of Object.entries(RECORD_PAGE_KINDS) as Array<[string, RecordPageKind]>) {
      server.get<{ Params: { slug: string } }>(`${base.prefix}/${kind}/:slug/`, async (request, reply) => {
        const context = visitorContext(options, base, request);
        const caller = createCaller(context);
        const notFound = () =>
          sendPage(reply, 404, renderRecordNotFoundPage(spec.label, base.language ?? DEFAULT_LANGUAGE));
        try {
          const record = await spec.load(caller, request.params.slug);
          if (!record) return notFound();
          const { filter, ...shown } = record;
          const { events } = await caller.events.list({ ...filter, ...UPCOMING, per_page: RECORD_PAGE_EVENTS });
          return sendPage(reply, 200, renderRecordPage({ ...shown, label: spec.label, events }));
        } catch (error) {
          if (isDomainError(error)) return notFound();
          throw error;
        }
      });
    }
  }
}
