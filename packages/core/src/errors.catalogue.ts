/**
 * Every error a client can receive, by its code: the HTTP status and the message (a template when it names
 * something). Services, the REST adapters and the command line all build their errors from this one table, and the
 * published client exports its codes as the union `CalendarErrorCode`.
 */
export const ERROR_CATALOGUE = {
  // Input
  rest_invalid_param: {
    status: 400,
    message: (a: { names: readonly string[] }) => `Invalid parameter(s): ${a.names.join(", ")}`,
  },
  rest_missing_callback_param: {
    status: 400,
    message: (a: { names: readonly string[] }) => `Missing parameter(s): ${a.names.join(", ")}`,
  },
  rest_invalid_json: { status: 400, message: "Invalid JSON body passed." },
  rest_invalid_content_length: { status: 400, message: "Invalid Content-Length." },
  rest_invalid_url: { status: 400, message: "The URL is malformed (an invalid percent-escape?)." },
  /** A framework's own client error; the REST envelope keeps the framework's 4xx status. */
  rest_bad_request: { status: 400, message: (a: { reason: string }) => a.reason },
  rest_invalid_icalendar: { status: 400, message: (a: { reason: string }) => a.reason },
  rest_import_too_large: {
    status: 413,
    message: (a: { count: number; limit: number; what: string }) =>
      `The file would import at least ${a.count} ${a.what}; one import takes at most ${a.limit}. Split the file, or import a shorter horizon_months.`,
  },
  rest_payload_too_large: { status: 413, message: "The request body is too large." },
  rest_unsupported_media_type: {
    status: 415,
    message: (a: { expected: string }) => `The request body must be ${a.expected}.`,
  },
  rest_request_timeout: { status: 408, message: "The request was not received in time." },
  rest_headers_too_large: { status: 431, message: "The request line or headers are too large." },

  // Routing
  rest_no_route: { status: 404, message: "No route was found matching the URL and request method." },
  rest_invalid_namespace: { status: 404, message: "The specified namespace could not be found." },
  not_found: { status: 404, message: "Nothing here. The API lives under /cal/events/v1." },

  // Who may
  rest_forbidden: {
    status: (a: { anonymous: boolean }) => (a.anonymous ? 401 : 403),
    message: "Sorry, you are not allowed to do that.",
  },
  rest_not_logged_in: { status: 401, message: (a: { reason: string }) => a.reason },
  rest_too_many_requests: { status: 429, message: (a: { reason: string }) => a.reason },

  // Events
  "rest-event-not-found": { status: 404, message: (a: { id: number }) => `Event with ID ${a.id} does not exist.` },
  "event-no-longer-available": { status: 403, message: "This event is no longer available" },
  "event-not-accessible": { status: 403, message: "The requested event is not accessible" },
  "event-password-protected": {
    status: 403,
    message: "The requested event is not accessible without a password",
  },
  "event-archive-page-not-found": { status: 404, message: "The requested event archive page does not exist" },
  "event-is-in-trash": { status: 410, message: "The event is already trashed" },
  "invalid-linked-post-id": { status: 400, message: "The provided linked post ID is not valid" },

  // Venues and organizers
  "venue-not-accessible": { status: 403, message: "The requested venue is not accessible" },
  "venue-is-in-trash": { status: 410, message: "The venue is already trashed" },
  "venue-archive-page-not-found": { status: 404, message: "The requested venue archive page does not exist" },
  "organizer-not-accessible": { status: 403, message: "The requested organizer is not accessible" },
  "organizer-is-in-trash": { status: 410, message: "The organizer is already trashed" },
  "organizer-archive-page-not-found": {
    status: 404,
    message: "The requested organizer archive page does not exist",
  },

  // Categories and tags
  term_exists: { status: 400, message: "A term with the name provided already exists in this taxonomy." },
  duplicate_term_slug: {
    status: 400,
    message: (a: { slug: string }) => `The slug “${a.slug}” is already in use by another term.`,
  },

  // Writes
  rest_conflict: { status: 409, message: "A concurrent request changed the same records; try again." },
  rest_precondition_failed: {
    status: 412,
    message: "The resource has changed since you read it (If-Match or If-Unmodified-Since); read it again and retry.",
  },

  // Changes and webhooks
  rest_sync_token_expired: {
    status: 410,
    message: (a: { retentionDays: number }) =>
      `The sync token is older than ${a.retentionDays} days: read the lists again (a full sync), then sync from the token of a call without since.`,
  },
  rest_webhook_invalid_id: { status: 404, message: "No webhook subscription with this id." },

  // The server
  rest_database_unavailable: { status: 503, message: "The database is unavailable right now; try again shortly." },
  rest_shutting_down: { status: 503, message: "The server is shutting down; send the request again." },
  rest_internal_error: { status: 500, message: "Internal server error." },

  // Command line (users, tokens, seed)
  cli_usage: { status: 400, message: (a: { reason: string }) => a.reason },
  database_not_found: {
    status: 404,
    message: (a: { path: string }) =>
      `No database at ${a.path}. Set DATABASE_URL to the server's database (relative paths are relative to the repository root).`,
  },
  seed_not_empty: {
    status: 409,
    message: (a: { events: number }) =>
      `The database already holds ${a.events} event(s). Run the seed with --force to add the demo data to them, or point DATABASE_URL to a new database, for example DATABASE_URL=file:./data/demo.db.`,
  },
  user_not_found: { status: 404, message: (a: { login: string }) => `No user with the login "${a.login}".` },
  user_exists: {
    status: 409,
    message: (a: { login: string }) => `A user with the login "${a.login}" already exists.`,
  },
  user_owns_content: {
    status: 409,
    message: (a: { login: string; events: number; venues: number; organizers: number }) =>
      `"${a.login}" owns ${a.events} event(s), ${a.venues} venue(s) and ${a.organizers} organizer(s); give --reassign <administrator login> to hand them over.`,
  },
  last_administrator: { status: 409, message: "This is the only administrator; make another one first." },
  token_not_found: { status: 404, message: "No active token matches." },
} as const satisfies Record<string, CatalogueEntry>;

interface CatalogueEntry {
  status: number | ((args: never) => number);
  message: string | ((args: never) => string);
}

type Catalogue = typeof ERROR_CATALOGUE;

/** The code of every error the calendar answers with. */
export type ErrorCode = keyof Catalogue;

type StatusOf<E> = E extends { status: infer S } ? (S extends (args: never) => infer R ? R : S) : never;

/** Every HTTP status an error of the catalogue can have. */
export type ErrorStatus = StatusOf<Catalogue[ErrorCode]>;

type ArgsOf<E> = E extends { message: (args: infer A) => string }
  ? A
  : E extends { status: (args: infer A) => number }
    ? A
    : undefined;

/** What the message template (or the status) of `C` needs. */
export type ErrorArgs<C extends ErrorCode> = ArgsOf<Catalogue[C]>;

/** The status and message of an error of the catalogue. */
export function describeError<C extends ErrorCode>(code: C, args: ErrorArgs<C>): { status: number; message: string } {
  const entry: CatalogueEntry = ERROR_CATALOGUE[code];
  // The entry's own argument type is `ErrorArgs<C>`; the table's common type only knows it as `never`.
  const call = <R>(value: R | ((args: never) => R)): R =>
    typeof value === "function" ? (value as (args: ErrorArgs<C>) => R)(args) : value;
  return { status: call(entry.status), message: call(entry.message) };
}
