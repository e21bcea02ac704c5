import { describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles.ts";
import { DomainError } from "../errors.ts";
import type { LinkedPostFilterScope } from "./linked-post.filters.ts";
import { linkedPostListQuery } from "./linked-post.schemas.ts";
import { buildLinkedPostWhere, eventsNamedBy } from "./linked-post.where.ts";

const now = new Date("2026-01-01T00:00:00Z");
const anonymous: Actor = { kind: "anonymous" };
const contributor: Actor = { kind: "user", id: 7, login: "c", role: "contributor" };
const editor: Actor = { kind: "user", id: 8, login: "e", role: "editor" };

const scope = (actor: Actor): LinkedPostFilterScope => ({ actor, language: "de", now, searchFieldCount: 4 });
const where = (input: Record<string, unknown>, actor: Actor = anonymous) =>
  buildLinkedPostWhere(linkedPostListQuery.parse(input), scope(actor));

/** The events whose links each actor sees: out of the trash, readable, details shown. */
const SHOWN_EVENTS = {
  anonymous: { AND: [{ status: { not: "trash" } }, { status: "publish" }, { OR: [{ password: "" }] }] },
  editor: { AND: [{ status: { not: "trash" } }] },
};

describe("buildLinkedPostWhere", () => {
  it("keeps the request's language and what the role may see", () => {
    expect(where({})).toEqual({ AND: [{ status: "publish" }, { language: "de" }] });
    expect(where({}, contributor)).toEqual({
      AND: [{ OR: [{ status: "publish" }, { authorId: 7, status: { not: "trash" } }] }, { language: "de" }],
    });
    expect(where({}, editor)).toEqual({ AND: [{ status: { not: "trash" } }, { language: "de" }] });
    expect(where({ status: "draft,trash" }, editor)).toEqual({
      AND: [{ status: { in: ["draft", "trash"] } }, { language: "de" }],
    });
  });

  it("rejects statuses other than publish for those who may not see them", () => {
    expect(() => where({ status: "draft" }, contributor)).toThrow(DomainError);
  });

  it("filters by a linked event whose links the requester sees", () => {
    expect(where({ event: "12" }).AND).toContainEqual({
      events: { some: { eventId: 12, event: SHOWN_EVENTS.anonymous } },
    });
    expect(where({ event: "12" }, editor).AND).toContainEqual({
      events: { some: { eventId: 12, event: SHOWN_EVENTS.editor } },
    });
    expect(eventsNamedBy(linkedPostListQuery.parse({ event: "12" }))).toEqual([{ param: "event", id: 12 }]);
    expect(eventsNamedBy(linkedPostListQuery.parse({}))).toEqual([]);
  });

  it("counts only events of the language that are not drafts, pending or trashed, and whose links are shown, for has_events", () => {
    const counted = { language: "de", status: { notIn: ["draft", "pending", "trash"] } };
    const event = { AND: [SHOWN_EVENTS.anonymous, counted] };
    expect(where({ has_events: "true" }).AND).toContainEqual({ events: { some: { event } } });
    expect(where({ has_events: "0" }).AND).toContainEqual({ events: { none: { event } } });
  });

  it("keeps those with an upcoming event of the language whose links the requester sees for only_with_upcoming=true only", () => {
    const upcoming = { language: "de", startUtc: { gte: now } };
    expect(where({ only_with_upcoming: "true" }).AND).toContainEqual({
      events: { some: { event: { AND: [SHOWN_EVENTS.anonymous, upcoming] } } },
    });
    expect(where({ only_with_upcoming: "1" }, editor).AND).toContainEqual({
      events: { some: { event: { AND: [SHOWN_EVENTS.editor, upcoming] } } },
    });
    expect(where({ only_with_upcoming: "false" })).toEqual(where({}));
  });

  it("searches the kind's number of fields, and only the name of records whose details are hidden", () => {
    const [guarded] = where({ search: "Ile de" }).AND as [
      { OR: [{ AND: [unknown, { OR: unknown[] }] }, { OR: unknown[] }] },
    ];
    expect(guarded.OR[0].AND[0]).toEqual({ OR: [{ password: "" }] });
    expect(guarded.OR[0].AND[1].OR).toHaveLength(4);
    expect(guarded.OR[1].OR).toHaveLength(1);
    const [unguarded] = where({ search: "Ile de" }, editor).AND as Array<{ OR?: unknown[] }>;
    expect(unguarded?.OR).toHaveLength(4);
  });
});
