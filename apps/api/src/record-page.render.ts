import { DateTime } from "luxon";
import { descriptionParagraphs, escapeHtml, jsonLdScript, page } from "./public-page.html.ts";

/** The public page of a venue, organizer, category or tag: pure functions from what it shows to a small page. */

export interface UpcomingEvent {
  title: string;
  url: string;
  /** Local wall times in `timezone`, as the API answers them. */
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean | null;
}

export interface RecordPageContent {
  /** "Venue", "Organizer", "Category", "Tag". */
  label: string;
  name: string;
  language: string;
  description: string;
  /** Term–value pairs shown under the name, values already HTML. */
  details: Array<[string, string]>;
  /** The record's own schema.org node (its `json_ld`, or one made for a term). */
  jsonLd: Record<string, unknown>;
  events: readonly UpcomingEvent[];
}

function instant(wallTime: string, event: UpcomingEvent): DateTime {
  return DateTime.fromSQL(wallTime, { zone: event.timezone });
}

function eventNode(event: UpcomingEvent): Record<string, unknown> {
  const format = (wallTime: string) =>
    event.all_day
      ? instant(wallTime, event).toISODate()
      : instant(wallTime, event).toISO({ suppressMilliseconds: true });
  return {
    "@context": "http://schema.org",
    "@type": "Event",
    name: event.title,
    url: event.url,
    startDate: format(event.start_date),
    endDate: format(event.end_date),
  };
}

function eventItem(event: UpcomingEvent, language: string): string {
  const start = instant(event.start_date, event).setLocale(language);
  const shown = start.toLocaleString(event.all_day ? DateTime.DATE_FULL : DateTime.DATETIME_FULL);
  const iso = start.toUTC().toISO({ suppressMilliseconds: true }) ?? "";
  return `<li><a href="${escapeHtml(event.url)}">${escapeHtml(event.title)}</a> <time datetime="${escapeHtml(iso)}">${escapeHtml(shown)}</time></li>`;
}

/** The page: the record's name, details and description, its upcoming events, and JSON-LD of both. */
export function renderRecordPage(content: RecordPageContent): string {
  const details = content.details.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join("");
  const events = content.events.length
    ? `<ul>${content.events.map((event) => eventItem(event, content.language)).join("")}</ul>`
    : "<p>No upcoming events.</p>";
  const body = [
    `<article><p>${escapeHtml(content.label)}</p><h1>${escapeHtml(content.name)}</h1>`,
    details ? `<dl>${details}</dl>` : "",
    descriptionParagraphs(content.description),
    `<h2>Upcoming events</h2>${events}`,
    "</article>",
  ].join("");
  const jsonLd = [content.jsonLd, ...content.events.map(eventNode)];
  return page(content.language, content.name, jsonLdScript(jsonLd), body);
}

/** The page for an unknown or non-public record, in the same style. */
export function renderRecordNotFoundPage(label: string, lang: string): string {
  return page(
    lang,
    `${label} not found`,
    "",
    `<h1>${escapeHtml(label)} not found</h1><p>There is no public ${escapeHtml(label.toLowerCase())} at this address.</p>`,
  );
}
