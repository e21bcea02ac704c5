import { LANGUAGES } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import { generateOpenApiDocument } from "trpc-to-openapi";
import { z } from "zod";
import { API_PATH, type ApiRoot } from "./base-paths.ts";
import { CREATE_EXAMPLES } from "./document-examples.ts";
import { addIcalPaths } from "./document-ical.ts";
import { argsOf } from "./namespace-index.ts";
import { type RestOperation, restOperations } from "./operations.ts";

type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;
type Parameter = Record<string, unknown> & { name: string; description?: string; schema?: { description?: string } };
type MediaType = Record<string, unknown>;
type Response = Record<string, unknown>;
type Operation = Record<string, unknown> & {
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
};

const DESCRIPTION = `Events, venues, organizers, categories and tags of the calendar, compatible with The Events Calendar's REST API (\`tribe/events/v1\`).

- **Reads** are public; anonymous callers see published content only, and a token shows what its user may edit too.
- **Writes** need an API token (\`pnpm calendar users create\`), sent as \`Authorization: Bearer <token>\` or as HTTP Basic \`<login>:<token>\`.
- **Languages**: every operation takes \`ml_language\` (\`zh-hans\`, \`en\`, \`fr\`, \`de\`); the same API is also served under \`/de\`, \`/fr\`, \`/zh-hans\` and \`/en\` (the second server below).
- **Errors** always answer \`{ "code": "…", "message": "…", "data": { "status": 400 } }\`.
- **Lists** send \`X-WP-Total\` and \`X-WP-TotalPages\` and a \`Link\` header (next, prev, first, last); arrays may also be sent as \`a[]=1&a[]=2\` or \`a=1,2\`, booleans as \`1\`/\`0\`.
- **Caching**: every successful read sends an \`ETag\` (and items their \`Last-Modified\`); send it back in \`If-None-Match\` (or \`If-Modified-Since\`) to get \`304 Not Modified\` while nothing changed. A write with \`If-Match\` (or \`If-Unmodified-Since\`) is done only if the item is still as read, else \`412\`.`;

const SECURITY_SCHEMES = {
  bearer: { type: "http", scheme: "bearer", description: "An API token: `Authorization: Bearer <token>`." },
  basic: { type: "http", scheme: "basic", description: "`<login>:<token>`, like WordPress application passwords." },
} as const;

/** Reads take credentials (they show editors their drafts) but never require them: `{}` is "anonymous". */
const OPTIONAL_SECURITY = [{}, ...Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] }))];
const REQUIRED_SECURITY = OPTIONAL_SECURITY.slice(1);

const TAGS = [
  { name: "events", description: "Events: list with filters, fetch by id or slug, create, update, trash and delete." },
  { name: "venues", description: "Venues: the places events are linked to." },
  { name: "organizers", description: "Organizers: the people and bodies behind events." },
  { name: "categories", description: "Event categories: hierarchical terms, per language." },
  { name: "tags", description: "Event tags: flat terms, per language." },
  { name: "changes", description: "The change feed: what changed since a sync token, deletions included." },
  { name: "import", description: "Import: the events of an iCalendar file, created, updated or trashed to match it." },
  {
    name: "webhooks",
    description:
      "Webhooks (administrators): URLs that receive every change, signed (Standard Webhooks), at least once.",
  },
];

const ERROR_REF = { $ref: "#/components/schemas/Error" };

const ERROR_SCHEMA = {
  type: "object",
  description: "The error envelope of every failure (WordPress REST style).",
  properties: {
    code: { type: "string", description: "Machine-readable error code, e.g. rest_invalid_param." },
    message: { type: "string", description: "Human-readable message." },
    data: {
      type: "object",
      properties: {
        status: { type: "integer", description: "The HTTP status." },
        params: {
          description: "The parameters at fault: name → reason, or the names of missing parameters.",
          oneOf: [
            { type: "object", additionalProperties: { type: "string" } },
            { type: "array", items: { type: "string" } },
          ],
        },
      },
      required: ["status"],
    },
  },
  required: ["code", "message", "data"],
};

/** Failures of the server rather than of one procedure. */
const SERVER_ERRORS: Record<string, string> = {
  503: "The database is unavailable right now (rest_database_unavailable); try again shortly.",
};
const WRITE_SERVER_ERRORS: Record<string, string> = {
  413: "The body is larger than the server's limit (CALENDAR_BODY_LIMIT).",
  415: "The body is neither JSON nor form-encoded.",
  429: "Too many writes from this client (CALENDAR_RATE_LIMIT, off by default; a series write counts each event it writes), too many occurrences of series created by a contributor or author this hour (CALENDAR_SERIES_OCCURRENCES_PER_HOUR), or too many failed authentications from its address (CALENDAR_AUTH_FAILURE_LIMIT); Retry-After says when to try again.",
};

const TOTAL_HEADERS = Object.fromEntries(
  ["X-WP-Total", "X-TEC-Total", "X-WP-TotalPages", "X-TEC-TotalPages"].map((name) => [
    name,
    {
      description: name.endsWith("Pages") ? "Number of pages." : "Number of matching items.",
      schema: { type: "integer" },
    },
  ]),
);

const isCollection = (path: string) => !path.includes("{");

const header = (description: string, format?: string) => ({
  description,
  schema: { type: "string", ...(format ? { format } : {}) },
});

const READ_HEADERS = {
  ETag: header("A weak validator of this answer: send it back in If-None-Match."),
  "Cache-Control": header("public (anonymous callers) or private (callers with credentials); revalidate."),
  Vary: header("Authorization, Accept-Encoding."),
};
const LIST_HEADERS = {
  ...TOTAL_HEADERS,
  Link: header('RFC 8288 links to the rel="next", "prev", "first" and "last" pages.'),
};
const ITEM_HEADERS = { "Last-Modified": header("When the item last changed (its modified_utc)."), ...READ_HEADERS };
/** Items whose answer carries `modified_utc` (events, venues, organizers) send it as `Last-Modified`. */
const isDated = (declared: RestOperation | undefined) =>
  declared?.output instanceof z.ZodObject && "modified_utc" in declared.output.shape;

const headerParameter = (name: string, description: string) =>
  ({ name, in: "header", required: false, description, schema: { type: "string" } }) as Parameter;
const READ_CONDITIONS = [
  headerParameter("If-None-Match", "ETags of copies the caller has: 304 Not Modified while one is current."),
  headerParameter("If-Modified-Since", "An HTTP date: 304 Not Modified if the item has not changed since (items)."),
];
const WRITE_CONDITIONS = [
  headerParameter(
    "If-Match",
    "The ETag of the item as the caller read it: the write is done only if it is still current, else 412.",
  ),
  headerParameter(
    "If-Unmodified-Since",
    "An HTTP date: the write is done only if the item has not changed since, else 412.",
  ),
];
const NOT_MODIFIED = {
  description: "Not Modified: the copy named by If-None-Match or If-Modified-Since is current.",
  headers: READ_HEADERS,
};
const PRECONDITION_FAILED =
  "The item changed since the caller read it (If-Match or If-Unmodified-Since), or is gone (rest_precondition_failed); nothing was written.";
const AUTH_FAILURES =
  "Too many failed authentications from this address (CALENDAR_AUTH_FAILURE_LIMIT); Retry-After says when to try again. Right credentials are never refused.";

/** trpc-to-openapi drops the description of an optional query parameter; the input schema still has it. */
function describeParameters(operation: Operation, declared: RestOperation | undefined): void {
  const args = argsOf(declared?.input);
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === "path") parameter.required = true;
    const described = args[parameter.name]?.description;
    parameter.description ??= typeof described === "string" ? described : parameter.schema?.description;
  }
}

/**
 * Success: 201 on creates, the total headers on lists. Failures: the ones the procedure declares, each with its
 * own description (the library keeps one per status for the whole document), in the WordPress error envelope.
 */
function describeResponses(operation: Operation, path: string, method: string, declared: RestOperation | undefined) {
  const responses = operation.responses ?? {};
  const writes = declared?.protect ?? true;
  if (method === "post" && isCollection(path) && responses["200"]) {
    responses["201"] = { ...responses["200"], description: "Created" };
    delete responses["200"];
  }
  if (method === "get" && responses["200"]) {
    responses["200"].headers = isCollection(path)
      ? { ...LIST_HEADERS, ...READ_HEADERS }
      : isDated(declared)
        ? ITEM_HEADERS
        : READ_HEADERS;
    responses["304"] = NOT_MODIFIED;
  }
  for (const status of Object.keys(responses)) {
    if (Number(status) >= 400) delete responses[status];
  }
  const preconditions = method !== "get" && !isCollection(path) ? { 412: PRECONDITION_FAILED } : {};
  const failures = {
    ...declared?.errorResponses,
    ...preconditions,
    ...SERVER_ERRORS,
    ...(writes ? WRITE_SERVER_ERRORS : { 429: AUTH_FAILURES }),
  };
  for (const [status, description] of Object.entries(failures)) {
    responses[status] = { description, content: { "application/json": { schema: ERROR_REF } } };
  }
}

/** What trpc-to-openapi cannot express, added to its document. */
function postProcess(document: OpenApiDocument, operations: RestOperation[]): OpenApiDocument {
  const declared = new Map(
    operations.map((operation) => [`${operation.method.toLowerCase()} ${operation.path}`, operation]),
  );
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      const operation = value;
      const procedure = declared.get(`${method} ${path}`);
      describeParameters(operation, procedure);
      const conditions = method === "get" ? READ_CONDITIONS : isCollection(path) ? [] : WRITE_CONDITIONS;
      operation.parameters = [...(operation.parameters ?? []), ...conditions];
      describeResponses(operation, path, method, procedure);
      if (procedure?.protect === false) operation.security = OPTIONAL_SECURITY;
      const example = method === "post" && isCollection(path) ? CREATE_EXAMPLES[path] : undefined;
      const json = operation.requestBody?.content?.["application/json"];
      if (example && json) json.example = example;
    }
  }
  addIcalPaths(document.paths as Parameters<typeof addIcalPaths>[0], {
    optional: OPTIONAL_SECURITY,
    required: REQUIRED_SECURITY,
  });
  // The library's own error schemas are replaced by `Error` everywhere.
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")),
  );
  document.components = {
    ...document.components,
    schemas: { ...schemas, Error: ERROR_SCHEMA },
  } as OpenApiDocument["components"];
  document.tags = TAGS;
  return document;
}

/** Generates the document once; `forRequest` fills in the servers of a request's own root. */
export function createApiDocument(router: AnyTRPCRouter) {
  const document = postProcess(
    generateOpenApiDocument(router, {
      title: "Calendar REST API",
      description: DESCRIPTION,
      version: "1.0.0",
      baseUrl: API_PATH,
      securitySchemes: SECURITY_SCHEMES,
    }),
    restOperations(router),
  );
  return {
    /** The servers: the request's own API root, and the same root under each language prefix. */
    forRequest(apiRoot: string, origin: string, root: ApiRoot): OpenApiDocument {
      return {
        ...document,
        servers: [
          { url: `${apiRoot}/` },
          {
            url: `${origin}/{language}${root.path}/`,
            description: "A language variant of the site.",
            variables: { language: { default: "de", enum: [...LANGUAGES] } },
          },
        ],
      };
    },
  };
}
