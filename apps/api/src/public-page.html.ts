import { createHash } from "node:crypto";
import { replaceTags } from "@calendar/core";
import type { FastifyReply } from "fastify";

/** What every public page of this server (events, venues, organizers, categories, tags) shares: style, policy, frame. */

const STYLE = [
  "body{font:1rem/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a;background:#fff}",
  "h1{font-size:1.75rem;line-height:1.2}dt{font-weight:600}dd{margin:0 0 .75rem}",
  "a{color:#0645ad}a:focus{outline:3px solid #1a1a1a;outline-offset:2px}",
].join("");

/** The pages' policy: nothing runs (the JSON-LD is a data block), their one inline style by hash. */
export const PUBLIC_PAGE_POLICY = [
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
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** The JSON-LD block of a page's head. */
export function jsonLdScript(value: unknown): string {
  return `<script type="application/ld+json">${scriptJson(value)}</script>`;
}

export function page(lang: string, title: string, head: string, body: string): string {
  return `<!doctype html>\n<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style>${head}</head><body><main>${body}</main></body></html>\n`;
}

/**
 * A description as text paragraphs: descriptions are stored as sent (not sanitized on write), so a page shows
 * their text, escaped, rather than HTML from a writer.
 */
export function descriptionParagraphs(description: string): string {
  const breaks = description.replace(/<\/(p|div|h[1-6]|li)>|<br\s*\/?>/gi, "\n\n");
  const text = replaceTags(breaks, "").replace(/&nbsp;/g, " ");
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join("");
}

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .type("text/html; charset=utf-8")
    .header("content-security-policy", PUBLIC_PAGE_POLICY)
    .header("referrer-policy", "no-referrer")
    .send(html);
}
