import type { DomainErrorData } from "@calendar/core";

/** The WordPress error body: `{ code, message, data: { status, params?, …extra } }`. */
export interface RestErrorBody {
  code: string;
  message: string;
  data: { status: number; [extra: string]: unknown };
}

export function restErrorBody({ code, message, status, ...extra }: DomainErrorData): RestErrorBody {
  return { code, message, data: { status, ...extra } };
}

export function restError(status: number, code: string, message: string): RestErrorBody {
  return { code, message, data: { status } };
}

export const NO_ROUTE = restError(404, "rest_no_route", "No route was found matching the URL and request method.");

function domainOf(body: unknown): DomainErrorData | undefined {
  const data = (body as { data?: { domain?: DomainErrorData } } | null)?.data;
  return data?.domain;
}

/**
 * trpc-to-openapi always answers errors as `{ message, code: <tRPC code>, data, issues }` (its #168); the domain
 * error travels inside `data.domain`. This rewrites such a payload to the WordPress shape.
 */
export function reshapeErrorPayload(payload: string): string {
  try {
    const domain = domainOf(JSON.parse(payload));
    return domain ? JSON.stringify(restErrorBody(domain)) : payload;
  } catch {
    return payload;
  }
}
