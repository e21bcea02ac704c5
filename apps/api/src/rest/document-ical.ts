import { importQuery, importResult } from "@calendar/core";
import { z } from "zod";

/**
 * The iCalendar routes (Fastify routes beside the procedures) in the API document: the feeds and files answering
 * `text/calendar`, and the import taking it.
 */

type Operation = Record<string, unknown> & { parameters?: Array<Record<string, unknown>> };
type Paths = Record<string, Record<string, Operation>>;

const CALENDAR_CONTENT = {
  "text/calendar": {
    schema: { type: "string", description: "An iCalendar (RFC 5545) VCALENDAR." },
    example: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Calendar//Calendar//EN\r\n…\r\nEND:VCALENDAR\r\n",
  },
};

const ERROR_CONTENT = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

function errorResponses(descriptions: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(descriptions).map(([status, description]) => [status, { description, content: ERROR_CONTENT }]),
  );
}

const FILE_QUERY = [
  {
    name: "password",
    in: "query",
    required: false,
    description: "The event's password, for a protected event.",
    schema: { type: "string" },
  },
  {
    name: "ml_language",
    in: "query",
    required: false,
    description: "Language of the request (zh-hans, en, fr, de).",
    schema: { type: "string", enum: ["zh-hans", "en", "fr", "de"] },
  },
];

function fileOperation(
  operationId: string,
  summary: string,
  pathParameter: Record<string, unknown>,
  security: unknown,
) {
  return {
    operationId,
    summary,
    description: `${summary}: a VCALENDAR with one VEVENT, answered as \`GET\` of the same event in JSON would be (the same checks and errors).`,
    tags: ["events"],
    security,
    parameters: [pathParameter, ...FILE_QUERY],
    responses: {
      200: { description: "The event as iCalendar.", content: CALENDAR_CONTENT },
      ...errorResponses({
        400: "An invalid parameter (rest_invalid_param), or no event with this slug.",
        401: "The credentials are invalid.",
        403: "The event is not visible to the caller, or its password is needed.",
        404: "No event with this id.",
        410: "The event is in the trash.",
        503: "The database is unavailable right now (rest_database_unavailable); try again shortly.",
      }),
    },
  };
}

/** The query parameters of `POST /import`, from its schema. */
function importParameters() {
  const { properties = {} } = z.toJSONSchema(importQuery, { io: "input" });
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema as Record<string, unknown>;
    return { name, in: "query", required: false, description, schema: rest };
  });
}

/** `POST /import`, tagged `import`: its path is no event's. */
function importOperation(security: unknown) {
  const { $schema: _, ...result } = z.toJSONSchema(importResult);
  return {
    operationId: "import-calendar",
    summary: "Import an iCalendar file",
    description:
      "Creates, updates (a higher SEQUENCE or a later LAST-MODIFIED) or trashes (STATUS:CANCELLED) the events of an iCalendar file, matched by their UID and RECURRENCE-ID; recurring series (RRULE, RDATE, EXDATE, overridden instances) become one event per occurrence up to the horizon. Importing the same file again changes nothing. Everything is checked before anything is written (a malformed file is a 400 naming the line, a file over the caps a 413, and either writes nothing); the file is then written in batches of whole series, each one transaction, so importing it again completes an import a failure interrupted. Editors and administrators; the body may be as large as `CALENDAR_IMPORT_BODY_LIMIT`. On tRPC: `import.calendar`.",
    tags: ["import"],
    security,
    parameters: importParameters(),
    requestBody: {
      required: true,
      content: { "text/calendar": { schema: { type: "string", description: "An iCalendar (RFC 5545) VCALENDAR." } } },
    },
    responses: {
      200: {
        description: "What the import did (or, with dry_run, would do).",
        content: { "application/json": { schema: result } },
      },
      ...errorResponses({
        400: "A malformed file (the line is named) or an invalid parameter (rest_invalid_param).",
        401: "Not signed in, or the credentials are invalid.",
        403: "The role may not import (editors and administrators may).",
        413: "The file is larger than CALENDAR_IMPORT_BODY_LIMIT (rest_payload_too_large), or would import more events or recurring series than CALENDAR_IMPORT_MAX_EVENTS or CALENDAR_IMPORT_MAX_SERIES allow (rest_import_too_large).",
        415: "The body is not text/calendar (rest_unsupported_media_type).",
        503: "The database is unavailable right now (rest_database_unavailable); try again shortly.",
      }),
    },
  };
}

/**
 * Adds `/events.ics`, `/events/{id}.ics` and `/events/by-slug/{slug}.ics` (with the list's query parameters) and
 * `/import`.
 */
export function addIcalPaths(paths: Paths, security: { optional: unknown; required: unknown }): void {
  const list = paths["/events"]?.get;
  paths["/events.ics"] = {
    get: {
      operationId: "events-feed",
      summary: "Events as an iCalendar feed",
      description:
        "The events `GET /events` selects with the same query (filters, default window, visibility), not paged: up to `CALENDAR_ICAL_MAX_EVENTS` of them. `GET /events` with `Accept: text/calendar` answers the same. Subscribe to this URL from Google Calendar, Apple Calendar or Outlook.",
      tags: ["events"],
      security: security.optional,
      parameters: (list?.parameters ?? []).filter(
        (parameter) => parameter.name !== "page" && parameter.name !== "per_page",
      ),
      responses: {
        200: { description: "The events as iCalendar.", content: CALENDAR_CONTENT },
        ...errorResponses({
          400: "An invalid parameter (rest_invalid_param).",
          401: "The credentials are invalid.",
          503: "The database is unavailable right now (rest_database_unavailable); try again shortly.",
        }),
      },
    },
  };
  const required = { in: "path", required: true };
  paths["/events/{id}.ics"] = {
    get: fileOperation(
      "events-file",
      "One event as an iCalendar file",
      { ...required, name: "id", description: "Numeric id of the event.", schema: { type: "integer", minimum: 0 } },
      security.optional,
    ),
  };
  paths["/events/by-slug/{slug}.ics"] = {
    get: fileOperation(
      "events-file-by-slug",
      "One event, by slug, as an iCalendar file",
      {
        ...required,
        name: "slug",
        description: "The event's slug in the request's language.",
        schema: { type: "string" },
      },
      security.optional,
    ),
  };
  paths["/import"] = { post: importOperation(security.required) };
}
