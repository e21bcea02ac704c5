import type { z } from "zod";

/** zod's own English messages (schemas that say their own reason keep it). */
const ZOD_DEFAULT = /^(Invalid input|Too small|Too big|Invalid option|Invalid string|Invalid number)\b/;

/** A list as WordPress writes one (`wp_sprintf_l`): `a and b`, `a, b, and c`. */
function listed(values: ReadonlyArray<unknown>): string {
  const items = values.map(String);
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items.at(-1)}`;
}

function reasonOf(name: string, issue: z.core.$ZodIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      return `${name} is not of type ${issue.expected === "int" ? "integer" : issue.expected}.`;
    case "invalid_value":
      return `${name} is not one of ${listed(issue.values)}.`;
    case "too_small":
      if (issue.origin === "number" || issue.origin === "int") {
        return `${name} must be greater than${issue.inclusive ? " or equal to" : ""} ${issue.minimum}`;
      }
      if (issue.origin === "string") return `${name} must be at least ${issue.minimum} character(s) long.`;
      if (issue.origin === "array") return `${name} must contain at least ${issue.minimum} items.`;
      return undefined;
    case "too_big":
      if (issue.origin === "number" || issue.origin === "int") {
        return `${name} must be less than${issue.inclusive ? " or equal to" : ""} ${issue.maximum}`;
      }
      if (issue.origin === "string") return `${name} must be at most ${issue.maximum} character(s) long.`;
      if (issue.origin === "array") return `${name} must contain at most ${issue.maximum} items.`;
      return undefined;
    default:
      return undefined;
  }
}

/** `venue[0][zip]`: a parameter's path as WordPress names nested values. */
function paramName(path: ReadonlyArray<PropertyKey>): string {
  const [first, ...rest] = path.map(String);
  return `${first ?? "body"}${rest.map((key) => `[${key}]`).join("")}`;
}

/**
 * Why a parameter is invalid, in the words of WordPress's schema validation (`rest_validate_value_from_schema`:
 * "per_page is not of type integer.", "page must be greater than or equal to 1", "order is not one of asc and
 * desc.") instead of zod's, naming nested values in brackets (`venue[zip]`). A reason a schema states itself is
 * kept, after the nested key it concerns (`zip: Must not be empty.`).
 */
export function issueReason(issue: z.core.$ZodIssue): string {
  const reworded = ZOD_DEFAULT.test(issue.message) ? reasonOf(paramName(issue.path), issue) : undefined;
  if (reworded !== undefined) return reworded;
  const nested = issue.path.slice(1);
  return nested.length ? `${nested.join(".")}: ${issue.message}` : issue.message;
}
