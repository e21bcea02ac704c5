import type ICAL from "ical.js";

/** What the properties of a VEVENT say, as the fields of `POST /events` (the venue and organizer inline). */

export function text(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function escapeHtml(plain: string): string {
  return plain.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "<br />\n");
}

/** X-ALT-DESC (ical.js leaves X- values escaped) when it is HTML, else DESCRIPTION as HTML-escaped text. */
export function descriptionOf(component: ICAL.Component): string | undefined {
  const alternative = component.getFirstProperty("x-alt-desc");
  const html = alternative?.getFirstValue();
  if (alternative?.getParameter("fmttype") === "text/html" && typeof html === "string" && html.trim()) {
    return html.replace(/\\([,;\\])/g, "$1").replace(/\\[nN]/g, "\n");
  }
  const plain = text(component, "description");
  return plain && escapeHtml(plain);
}

export function venueOf(component: ICAL.Component): Record<string, unknown> | undefined {
  const location = text(component, "location");
  if (!location) return undefined;
  const [name = location, ...rest] = location.split("\n");
  const geo = component.getFirstPropertyValue("geo");
  const coordinates =
    Array.isArray(geo) && geo.length === 2 ? { geo_lat: Number(geo[0]), geo_lng: Number(geo[1]) } : {};
  const address = rest.join(", ").trim();
  return { venue: name.trim(), ...(address ? { address } : {}), ...coordinates };
}

export function organizerOf(component: ICAL.Component): Record<string, unknown> | undefined {
  const property = component.getFirstProperty("organizer");
  if (!property) return undefined;
  const value = String(property.getFirstValue() ?? "");
  const email = /^mailto:(.+)$/i.exec(value)?.[1]?.trim();
  const cn = property.getParameter("cn");
  const name = typeof cn === "string" && cn.trim() ? cn.trim() : email;
  return name ? { organizer: name, ...(email ? { email } : {}) } : undefined;
}

export function categoriesOf(component: ICAL.Component): string[] {
  const names = component
    .getAllProperties("categories")
    .flatMap((property) => property.getValues().map((value) => String(value).trim()));
  return [...new Set(names.filter(Boolean))];
}

export function websiteOf(component: ICAL.Component): string | undefined {
  const url = text(component, "url");
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}
