import type { generateOpenApiDocument } from "trpc-to-openapi";
import type { TestServer } from "../support/server.ts";

/* Typed reads of the API document (`GET /cal/events/v1/doc`) for the tests that check it. */

/** The API document as the server builds it (trpc-to-openapi's OpenAPI 3.1 object). */
export type ApiDocument = ReturnType<typeof generateOpenApiDocument>;
type PathItem = NonNullable<ApiDocument["paths"]>[string];
export type Operation = NonNullable<PathItem["get"]>;
type Reference = Extract<NonNullable<Operation["requestBody"]>, { $ref: string }>;
export type DocumentedResponse = Exclude<NonNullable<NonNullable<Operation["responses"]>["default"]>, Reference>;

const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface DocumentedOperation {
  path: string;
  method: (typeof OPERATION_METHODS)[number];
  operation: Operation;
}

/** Every operation of the document, with its path and method. */
export function operationsOf(document: ApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    OPERATION_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
}

/** The operation of a path and method; it must be documented. */
export function operationOf(document: ApiDocument, path: string, method: DocumentedOperation["method"]): Operation {
  const operation = document.paths?.[path]?.[method];
  if (!operation) throw new Error(`The document has no ${method} ${path}.`);
  return operation;
}

/** The response of an operation to a status, written out (not a $ref); it must be documented. */
export function responseOf(operation: Operation, status: string): DocumentedResponse {
  const response: DocumentedResponse | Reference | undefined = operation.responses?.[status];
  if (!response || "$ref" in response)
    throw new Error(`No response ${status} written out in ${operation.operationId}.`);
  return response;
}

/** The JSON request body of an operation, when it is written out. */
export function jsonBodyOf(operation: Operation) {
  const body = operation.requestBody;
  return body && !("$ref" in body) ? body.content["application/json"] : undefined;
}

export async function documentOf(server: TestServer): Promise<ApiDocument> {
  return (await server.rest<ApiDocument>("GET", "/cal/events/v1/doc")).body;
}
