import { createHash } from "node:crypto";
import { type EventDetailOutput, replaceTags } from "@calendar/core";
import { DateTime } from "luxon";

/** The public event page's HTML: pure functions from the single-event JSON to a small, self-contained page. */

const STYLE = [
  "body{font:1rem/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}",
  "h1{font-size:1.75rem;line-height:1.2}dt{font-weight:600}dd{margin:0 0 .75rem}",
  "a{color:#0645ad}a:focus{outline:3px solid #1a1a1a;outline-offset:2px}",
].join("");

/** The page's policy: nothing runs (the JSON-LD is a data block), its one inline style by hash. */
export const EVENT_PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "img-src 'self' https: data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** JSON inside `<script>`: `<` escaped so no `</script>` in a value can end the block. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function page(lang: string, title: string, head: string, body: string): string {
  return `<!doctype html>\n<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style>${head}</head><body><main>${body}</main></body></html>\n`;
}

/** A date of the event in its own time zone, in its language (day only for all-day events). */
function formatDate(utcWallTime: string, event: EventDetailOutput): string {
  const date = DateTime.fromSQL(utcWallTime, { zone: "utc" }).setZone(event.timezone).setLocale(event.language);
  return date.toLocaleString(event.all_day ? DateTime.DATE_FULL : DateTime.DATETIME_FULL);
}

function timeElement(utcWallTime: string, event: EventDetailOutput): string {
  const iso = DateTime.fromSQL(utcWallTime, { zone: "utc" }).toISO({ suppressMilliseconds: true });
  return `<time datetime="${escapeHtml(iso ?? "")}">${escapeHtml(formatDate(utcWallTime, event))}</time>`;
}

/**
 * The description as text paragraphs: descriptions are stored as sent (not sanitized on write), so the page shows
 * their text, escaped, rather than HTML from a writer.
 */
function descriptionParagraphs(description: string): string {
  const breaks = description.replace(/<\/(p|div|h[1-6]|li)>|<br\s*\/?>/gi, "\n\n");
  const text = replaceTags(breaks, "").replace(/&nbsp;/g, " ");
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join("");
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
  const head = `<link rel="alternate" type="text/calendar" href="${escapeHtml(calendarLink)}"><script type="application/ld+json">${scriptJson(event.json_ld)}</script>`;
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
