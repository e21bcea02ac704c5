import type { RouterOutputs } from "@calendar/core";
import type { RestErrorBody } from "../../src/rest/envelope.ts";

/**
 * The REST routes that answer JSON, `"METHOD /path"` relative to a base path (`/cal/events/v1`), each typed by the
 * output of the procedure that serves it (the paths of `events/event.router.ts`, `venues/venue.router.ts`, …).
 */
type Resource = "events" | "venues" | "organizers" | "categories" | "tags";
type WithSlugs = "events" | "venues" | "organizers";
type Update = "POST" | "PUT" | "PATCH";

type ResourceRoutes<R extends Resource> = {
  [K in `GET /${R}`]: RouterOutputs[R]["list"];
} & { [K in `POST /${R}`]: RouterOutputs[R]["create"] } & {
  [K in `GET /${R}/{id}`]: RouterOutputs[R]["get"];
} & { [K in `${Update} /${R}/{id}`]: RouterOutputs[R]["update"] } & {
  [K in `DELETE /${R}/{id}`]: RouterOutputs[R]["delete"];
};

type SlugRoutes<R extends WithSlugs> = {
  [K in `GET /${R}/by-slug/{slug}`]: RouterOutputs[R]["getBySlug"];
} & { [K in `${Update} /${R}/by-slug/{slug}`]: RouterOutputs[R]["updateBySlug"] } & {
  [K in `DELETE /${R}/by-slug/{slug}`]: RouterOutputs[R]["deleteBySlug"];
};

type Webhooks = RouterOutputs["webhooks"];

type WebhookRoutes = {
  "GET /webhooks": Webhooks["list"];
  "POST /webhooks": Webhooks["create"];
  "GET /webhooks/{id}": Webhooks["get"];
  "POST /webhooks/{id}": Webhooks["update"];
  "DELETE /webhooks/{id}": Webhooks["delete"];
  "POST /webhooks/{id}/rotate-secret": Webhooks["rotateSecret"];
  "GET /webhooks/{id}/deliveries": Webhooks["deliveries"];
};

/** The change feed, and the iCalendar import (a REST route of its own that answers as `import.calendar`). */
type FeedRoutes = {
  "GET /events/{id}/occurrences": RouterOutputs["events"]["occurrences"];
  "GET /changes": RouterOutputs["changes"]["list"];
  "POST /import": RouterOutputs["import"]["calendar"];
};

export type RestRoutes = WebhookRoutes &
  FeedRoutes &
  ResourceRoutes<"events"> &
  ResourceRoutes<"venues"> &
  ResourceRoutes<"organizers"> &
  ResourceRoutes<"categories"> &
  ResourceRoutes<"tags"> &
  SlugRoutes<"events"> &
  SlugRoutes<"venues"> &
  SlugRoutes<"organizers">;

export type RestRoute = keyof RestRoutes & string;

/** The path parameters a route names (`{id}`, `{slug}`). */
export type RouteParams<R extends string> = R extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string | number } & RouteParams<Rest>
  : unknown;

/** The method and the path of a route, with its parameters filled in (encoded). */
export function routeTarget(route: RestRoute, params: Record<string, string | number> = {}) {
  const [method = "GET", template = "/"] = route.split(" ");
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route}: no value for {${name}}.`);
    return encodeURIComponent(String(value));
  });
  return { method, path };
}

export type { RestErrorBody };
