import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import { DomainError } from "../errors.ts";
import { linkedPostListQuery } from "./linked-post.schemas.ts";
import { buildLinkedPostWhere, type LinkedPostListContext } from "./linked-post.where.ts";

const now = new Date("2026-01-01T00:00:00Z");
const anonymous: Actor = { kind: "anonymous" };
const contributor: Actor = { kind: "user", id: 7, login: "c", role: "contributor" };
const editor: Actor = { kind: "user", id: 8, login: "e", role: "editor" };

const context = (actor: Actor): LinkedPostListContext => ({ actor, language: "de", now, searchFieldCount: 4 });
const where = (input: Record<string, unknown>, actor: Actor = anonymous) =>
  buildLinkedPostWhere(linkedPostListQuery.parse(input), context(actor));

describe("buildLinkedPostWhere", () => {
  it("keeps the request's language and what the role may see", () => {
    expect(where({})).toEqual({ language: "de", AND: [{ status: "publish" }] });
    expect(where({}, contributor)).toEqual({
      language: "de",
      AND: [{ OR: [{ status: "publish" }, { authorId: 7, status: { not: "trash" } }] }],
    });
    expect(where({}, editor)).toEqual({ language: "de", AND: [{ status: { not: "trash" } }] });
    expect(where({ status: "draft,trash" }, editor)).toEqual({
      language: "de",
      AND: [{ status: { in: ["draft", "trash"] } }],
    });
  });

  it("rejects statuses other than publish for those who may not see them", () => {
    expect(() => where({ status: "draft" }, contributor)).toThrow(DomainError);
  });

  it("filters by a linked event", () => {
    expect(where({ event: "12" }).AND).toContainEqual({ events: { some: { eventId: 12 } } });
  });

  it("counts only events of the language that are not drafts, pending or trashed for has_events", () => {
    const counted = { event: { language: "de", status: { notIn: ["draft", "pending", "trash"] } } };
    expect(where({ has_events: "true" }).AND).toContainEqual({ events: { some: counted } });
    expect(where({ has_events: "0" }).AND).toContainEqual({ events: { none: counted } });
  });

  it("keeps those with an upcoming event of the language the requester may see for only_with_upcoming=true only", () => {
    expect(where({ only_with_upcoming: "true" }).AND).toContainEqual({
      events: { some: { event: { language: "de", AND: [{ startUtc: { gte: now } }, { status: "publish" }] } } },
    });
    expect(where({ only_with_upcoming: "1" }, editor).AND).toContainEqual({
      events: {
        some: { event: { language: "de", AND: [{ startUtc: { gte: now } }, { status: { not: "trash" } }] } },
      },
    });
    expect(where({ only_with_upcoming: "false" })).toEqual(where({}));
  });

  it("searches the kind's number of fields", () => {
    const [, search] = where({ search: "Ile de" }).AND as Array<{ OR?: unknown[] }>;
    expect(search?.OR).toHaveLength(4);
  });
});
