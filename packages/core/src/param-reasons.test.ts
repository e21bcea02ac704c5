import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issueReason } from "./param-reasons.ts";

function reasonsOf(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("Expected a failure.");
  return result.error.issues.map(issueReason);
}

describe("issueReason", () => {
  it("words zod's default reasons as WordPress's schema validation does", () => {
    const schema = z.object({
      page: z.number().int().min(1),
      per_page: z.number().int().max(50),
      order: z.enum(["asc", "desc"]),
      language: z.enum(["zh-hans", "en", "fr", "de"]),
      search: z.string().min(2).max(3),
      include: z.array(z.number()).min(1).max(2),
      featured: z.boolean(),
    });
    expect(
      reasonsOf(schema, {
        page: 0,
        per_page: 51,
        order: "up",
        language: "es",
        search: "a",
        include: [],
        featured: "x",
      }),
    ).toEqual([
      "page must be greater than or equal to 1",
      "per_page must be less than or equal to 50",
      "order is not one of asc and desc.",
      "language is not one of zh-hans, en, fr, and de.",
      "search must be at least 2 character(s) long.",
      "include must contain at least 1 items.",
      "featured is not of type boolean.",
    ]);
    expect(reasonsOf(schema.pick({ page: true }), { page: 1.5 })).toEqual(["page is not of type integer."]);
  });

  it("names a nested value in brackets, and keeps a reason the schema states itself after its key", () => {
    const schema = z.object({
      venue: z.object({ zip: z.string().max(3), name: z.string().min(1, "Must not be empty.") }),
    });
    expect(reasonsOf(schema, { venue: { zip: "12345", name: "" } })).toEqual([
      "venue[zip] must be at most 3 character(s) long.",
      "name: Must not be empty.",
    ]);
  });
});
