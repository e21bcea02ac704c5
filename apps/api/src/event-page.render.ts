import type { EventDetailOutput } from "@calendar/core";
import { DateTime } from "luxon";
import { descriptionParagraphs, escapeHtml, jsonLdScript, page } from "./public-page.html.ts";

/** The public event page's HTML: pure functions from the single-event JSON to a small, self-contained page. */

/** A date of the event in its own time zone, in its language (day only for all-day events). */
function formatDate(utcWallTime: string, event: EventDetailOutput): string {
  const date = DateTime.fromSQL(utcWallTime, { zone: "utc" }).setZone(event.timezone).setLocale(event.language);
  return date.toLocaleString(event.all_day ? DateTime.DATE_FULL : DateTime.DATETIME_FULL);
}

function timeElement(utcWallTime: string, event: EventDetailOutput): string {
  const iso = DateTime.fromSQL(utcWallTime, { zone: "utc" }).toISO({ suppressMilliseconds: true });
  return `<time datetime="${escapeHtml(iso ?? "")}">${escapeHtml(formatDate(utcWallTime, event))}</time>`;
}

function venueLine(event: EventDetailOutput): string | undefined {
  const venues = Array.isArray(event.venue) ? event.venue : [event.venue];
  const lines = venues.map((venue) =>
    [venue.venue, venue.address, venue.zip, venue.city, venue.country].filter(Boolean).join(", "),
  );
  return lines.length > 0 ? lines.map(escapeHtml).join("<br>") : undefined;
}

/** The public page of one event; `calendarLink` is its `.ics` on this server. */
export function renderEventPage(event: EventDetailOutput, calendarLink: string): string {
  const details: Array<[string, string]> = [
    ["Starts", timeElement(event.utc_start_date, event)],
    ["Ends", timeElement(event.utc_end_date, event)],
  ];
  const venue = venueLine(event);
  if (venue) details.push(["Venue", venue]);
  if (event.organizer.length > 0) {
    details.push(["Organizers", event.organizer.map((organizer) => escapeHtml(organizer.organizer)).join(", ")]);
  }
  const list = details.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join("");
  const head = `<link rel="alternate" type="text/calendar" href="${escapeHtml(calendarLink)}">${jsonLdScript(event.json_ld)}`;
  const body = [
    `<article><h1>${escapeHtml(event.title)}</h1>`,
    `<dl>${list}</dl>`,
    `<p><a href="${escapeHtml(calendarLink)}">Add to calendar</a></p>`,
    descriptionParagraphs(event.description),
    "</article>",
  ].join("");
  return page(event.language, event.title, head, body);
}

/** The page for an unknown or non-public event, in the same style. */
export function renderEventNotFoundPage(lang: string): string {
  return page(lang, "Event not found", "", "<h1>Event not found</h1><p>There is no public event at this address.</p>");
}
