import { LANGUAGES } from "@calendar/core";
import type { AnyTRPCRouter } from "@trpc/server";
import { generateOpenApiDocument } from "trpc-to-openapi";
import { API_PATH } from "./base-paths.ts";

type OpenApiDocument = ReturnType<typeof generateOpenApiDocument>;
type Operation = Record<string, unknown> & {
  parameters?: Array<Record<string, unknown>>;
  responses?: Record<string, Record<string, unknown>>;
};

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

/**
 * What trpc-to-openapi cannot express, added to its document: required path parameters (its preprocess ids lose
 * the flag), 201 on creates, the total headers on lists, and the WordPress error envelope on every failure.
 */
function postProcess(document: OpenApiDocument): OpenApiDocument {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, value] of Object.entries(item as Record<string, Operation>)) {
      const operation = value;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "path") parameter.required = true;
      }
      const responses = operation.responses ?? {};
      if (method === "post" && isCollection(path) && responses["200"]) {
        responses["201"] = { ...responses["200"], description: "Created" };
        delete responses["200"];
      }
      if (method === "get" && isCollection(path) && responses["200"]) {
        responses["200"].headers = TOTAL_HEADERS;
      }
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400) response.content = { "application/json": { schema: ERROR_REF } };
      }
    }
  }
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
  } as OpenApiDocument["components"];
  return document;
}

/** Generates the document once; `forRequest` fills in the servers of a request's own root. */
export function createApiDocument(router: AnyTRPCRouter) {
  const document = postProcess(
    generateOpenApiDocument(router, {
      title: "Calendar REST API",
      description:
        "Events, venues, organizers, categories and tags of the calendar. Compatible with The Events Calendar's REST API (tribe/events/v1).",
      version: "1.0.0",
      baseUrl: API_PATH,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token: `Authorization: Bearer <token>`." },
        basic: {
          type: "http",
          scheme: "basic",
          description: "`<login>:<token>`, like WordPress application passwords.",
        },
      },
    }),
  );
  return {
    forRequest(apiRoot: string, origin: string): OpenApiDocument {
      return {
        ...document,
        servers: [
          { url: `${apiRoot}/` },
          {
            url: `${origin}/{language}${API_PATH}/`,
            description: "A language variant of the site.",
            variables: { language: { default: "de", enum: [...LANGUAGES] } },
          },
        ],
      };
    },
  };
}
