import { invalidParam, type ListPage, type RestTransport } from "@calendar/core";

/** A neighbour's link with another page number: page 1 without `page`, as the lists write it. */
function withPage(link: string, page: number): string {
  const url = new URL(link);
  const params = [...url.searchParams].filter(([key]) => key !== "page");
  const search = new URLSearchParams(page > 1 ? [["page", String(page)], ...params] : params).toString();
  return `${url.origin}${url.pathname}${search ? `?${search}` : ""}`;
}

/** The `Link` header of a list page (RFC 8288): next, prev, first and last; undefined for a lone page. */
function listLinkHeader(page: {
  total_pages: number;
  next_rest_url?: string | undefined;
  previous_rest_url?: string | undefined;
}): string | undefined {
  const neighbour = page.next_rest_url ?? page.previous_rest_url;
  if (neighbour === undefined) return undefined;
  const links: Array<[string, string]> = [];
  if (page.next_rest_url) links.push([page.next_rest_url, "next"]);
  if (page.previous_rest_url) links.push([page.previous_rest_url, "prev"]);
  links.push([withPage(neighbour, 1), "first"], [withPage(neighbour, page.total_pages), "last"]);
  return links.map(([url, rel]) => `<${url}>; rel="${rel}"`).join(", ");
}

/**
 * What a procedure answers over REST besides its body: the status (201 on creates) and the headers (list totals,
 * `Link`, `Last-Modified`), which `responseMeta` sends; and the path parameters decoded, which trpc-to-openapi
 * passes still percent-encoded (mcampa/trpc-to-openapi#166).
 */
export class RestAnswer implements RestTransport {
  status: number | undefined;
  readonly headers: Record<string, string> = {};

  setStatus(status: number): void {
    this.status = status;
  }

  /** The four total headers of a list (WordPress and TEC names), and its `Link` header when it has neighbours. */
  listPage(page: ListPage): void {
    Object.assign(this.headers, {
      "X-WP-Total": String(page.total),
      "X-WP-TotalPages": String(page.total_pages),
      "X-TEC-Total": String(page.total),
      "X-TEC-TotalPages": String(page.total_pages),
    });
    const link = listLinkHeader(page);
    if (link) this.headers.Link = link;
  }

  /** `modifiedUtc` is `YYYY-MM-DD HH:MM:SS` in UTC. */
  lastModified(modifiedUtc: string): void {
    this.headers["Last-Modified"] = new Date(`${modifiedUtc.replace(" ", "T")}Z`).toUTCString();
  }

  decodePathParams(input: unknown, path: string): unknown {
    if (typeof input !== "object" || input === null) return input;
    const decoded: Record<string, unknown> = { ...input };
    for (const [, name = ""] of path.matchAll(/\{(\w+)\}/g)) {
      const value = decoded[name];
      if (typeof value !== "string") continue;
      try {
        decoded[name] = decodeURIComponent(value);
      } catch {
        throw invalidParam(name, "Malformed percent-encoding.");
      }
    }
    return decoded;
  }
}
