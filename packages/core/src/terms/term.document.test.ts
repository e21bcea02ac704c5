import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Actor, ANONYMOUS } from "../auth/roles.ts";
import { categoryResource } from "../categories/category.present.ts";
import type { Db } from "../db/db.ts";
import { invalidParams } from "../errors.ts";
import { eventLinksShown } from "../linked-posts/event-links.ts";
import type { Scope } from "../scope.ts";
import type { Language } from "../shared/language.ts";
import { pageWindow, totalPages } from "../shared/query.ts";
import { translationsOf } from "../shared/translations.ts";
import { tagResource } from "../tags/tag.present.ts";
import {
  createTestActors,
  FIXTURE_PASSWORD,
  outcomeOf,
  PROVIDERS,
  serviceWriters,
  type TestActors,
  testScope,
  useTestDatabase,
} from "../testing/index.ts";
import { buildTermWhere, type TERM_PARAMETERS, termEventsNamedBy } from "./term.filters.ts";
import { termPageLinks } from "./term.present.ts";
import { type TermListQuery, termListQuery } from "./term.schemas.ts";
import { createTerm, listTerms, type TermResource } from "./term.service.ts";
import { type TermStore, termStore } from "./term.store.ts";
import { sortByCount, sortByInclude, termSort } from "./term.where.ts";

/**
 * The one-statement list of categories and tags against the Prisma list it replaced (kept here only as the
 * reference): for every query of a matrix, several readers and two languages, the same answer or error, byte for
 * byte.
 */

/** The list as it was: the references checked, then Prisma's page, count and one translation query. */
async function referenceList<T>(scope: Scope, resource: TermResource<T>, query: TermListQuery) {
  return scope.db.$transaction(async (tx) => {
    const store = termStore(tx, resource.taxonomy);
    const invalid: Record<string, string> = {};
    for (const param of ["include", "exclude"] as const) {
      const ids = query[param] ?? [];
      const found = new Set((await store.find({ id: { in: ids } })).map((row) => row.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) invalid[param] = `Unknown id(s): ${missing.join(", ")}.`;
    }
    if (query.parent !== undefined && !(await termStore(tx, "category").find({ id: query.parent })).length) {
      invalid.parent = "No category has this id.";
    }
    const events = [];
    for (const { param, id } of termEventsNamedBy(query)) {
      const event = await tx.event.findUnique({ where: { id } });
      if (event) events.push(event);
      else invalid[param] = "No event has this id.";
    }
    if (Object.keys(invalid).length) throw invalidParams(invalid);
    const hidden = !events.map((event) => eventLinksShown(scope.actor, event)).every((shown) => shown);
    const { rows, total } = hidden ? { rows: [], total: 0 } : await referencePage(store, query, scope.language);
    const translations = await translationsOf(rows, (groups) => store.find({ translationGroup: { in: groups } }));
    const pages = totalPages(total, query.per_page);
    return {
      items: rows.map((row) =>
        resource.present(row, { count: row.eventCount, translations: translations.get(row.id) ?? {} }, scope.links),
      ),
      total,
      total_pages: pages,
      ...termPageLinks(scope.links, resource.taxonomy, query, pages),
    };
  });
}

async function referencePage(store: TermStore, query: TermListQuery, language: string) {
  const where = buildTermWhere(query, language);
  const sort = termSort(query);
  if (sort.kind === "database") {
    const rows = await store.find(where, { orderBy: sort.orderBy, ...pageWindow(query) });
    return { rows, total: await store.count(where) };
  }
  const all = await store.find(where);
  const sorted =
    sort.kind === "count"
      ? sortByCount(all, new Map(all.map((row) => [row.id, row.eventCount])), sort.direction)
      : sortByInclude(all, sort.ids, sort.direction);
  const { skip, take } = pageWindow(query);
  return { rows: sorted.slice(skip, skip + take), total: all.length };
}

describe.each(PROVIDERS)("listing categories and tags in one statement (%s)", (provider) => {
  const database = useTestDatabase(provider);
  let db: Db;
  let actors: TestActors<"administrator" | "author" | "subscriber">;
  const ids: Record<string, number> = {};
  const scope = (actor: Actor, language: Language = "en"): Scope => testScope(database.current, actor, language);

  beforeAll(async () => {
    db = database.current.handle.db;
    actors = await createTestActors(db, "terms", ["administrator", "author", "subscriber"]);
    const { administrator, author } = actors;
    const admin = (language: Language = "en") => scope(administrator, language);

    const category = async (name: string, extra: Record<string, unknown> = {}, language: Language = "en") =>
      (await createTerm(admin(language), categoryResource, { name, ...extra })).id;
    const tag = async (name: string, extra: Record<string, unknown> = {}, language: Language = "en") =>
      (await createTerm(admin(language), tagResource, { name, ...extra })).id;

    ids.music = await category("Music", { description: "<p>All music</p>" });
    ids.musik = await category("Musik", { translation_of: ids.music }, "de");
    ids.musique = await category("Musique", { translation_of: ids.music }, "fr");
    ids.jazz = await category("Jazz", { parent: ids.music });
    ids.bebop = await category("bebop", { parent: ids.jazz, slug: "be-bop" });
    ids.percent = await category("100% Jazz", { parent: ids.music });
    ids.under = await category("under_score");
    ids.slash = await category("Back\\slash");
    ids.ecole = await category("École");
    ids.ahnlich = await category("Ähnlich", {}, "de");
    ids.empty = await category("Zero events");
    ids.loud = await tag("Loud", { description: "Very" });
    ids.laut = await tag("Laut", { translation_of: ids.loud }, "de");
    ids.quiet = await tag("quiet");
    ids.outdoor = await tag("Outdoor 100%");
    ids.unused = await tag("unused_tag");

    const { event } = serviceWriters(scope);
    const main = await event(administrator, {
      title: "Main",
      categories: [ids.music, ids.jazz, ids.bebop, ids.ecole],
      tags: [ids.loud, ids.quiet],
    });
    ids.main = main.id;
    await event(administrator, { title: "Second", categories: [ids.jazz, ids.percent], tags: [ids.loud] });
    await event(administrator, { title: "Third", categories: [ids.jazz, ids.under, ids.slash], tags: [ids.outdoor] });
    ids.draft = (
      await event(administrator, { title: "Draft", status: "draft", categories: [ids.empty], tags: [ids.unused] })
    ).id;
    const secret = await event(author, {
      title: "Protected",
      password: FIXTURE_PASSWORD,
      categories: [ids.music],
      tags: [ids.quiet],
    });
    ids.protected = secret.id;
    await event(administrator, { title: "Konzert", categories: [ids.musik, ids.ahnlich] }, "de");
  });

  function queries(): Array<Record<string, unknown>> {
    return [
      {},
      { hide_empty: false },
      { per_page: 2 },
      { per_page: 2, page: 2 },
      { per_page: 2, page: 40 },
      { hide_empty: false, order: "desc" },
      { search: "jazz" },
      { search: "JAZ" },
      { search: "100%" },
      { search: "%" },
      { search: "_" },
      { search: "\\" },
      { search: "ecole" },
      { search: "ähn", hide_empty: false },
      { search: "be-b" },
      { include: [ids.jazz, ids.music, ids.loud, ids.quiet] },
      { include: [ids.jazz, 999_999] },
      { exclude: [ids.jazz, ids.loud], hide_empty: false },
      { exclude: [999_998] },
      { orderby: "id", order: "desc", hide_empty: false },
      { orderby: "slug", hide_empty: false, per_page: 3, page: 2 },
      { orderby: "count", hide_empty: false },
      { orderby: "count", order: "desc", per_page: 2, page: 2 },
      { orderby: "include", include: [ids.under, ids.music, ids.jazz, ids.quiet, ids.loud], hide_empty: false },
      { orderby: "include", order: "desc", include: [ids.under, ids.music, ids.quiet], per_page: 1, page: 2 },
      { orderby: "include" },
      { orderby: "name", order: "desc", hide_empty: false },
      { parent: ids.music },
      { parent: ids.jazz, hide_empty: false },
      { parent: 999_997 },
      { event: ids.main },
      { post: ids.main, hide_empty: false },
      { event: ids.protected },
      { post: ids.draft, hide_empty: false },
      { post: ids.protected, event: ids.main },
      { event: 999_996 },
      { slug: "Music" },
      { slug: "be-bop" },
      { slug: "quiet", search: "qui" },
    ];
  }

  // Hundreds of lists, each read twice: more than the default time on a loaded machine.
  it("answers every list as the Prisma list did, for every reader and language", async () => {
    let compared = 0;
    for (const resource of [categoryResource, tagResource] as Array<TermResource<unknown>>) {
      for (const raw of queries()) {
        const query = termListQuery.parse(raw);
        for (const [name, actor] of Object.entries(actors)) {
          for (const language of ["en", "de"] as const) {
            const reader = scope(actor, language);
            const context = `${resource.taxonomy} ${JSON.stringify(raw)} for ${name} in ${language}`;
            const expected = await outcomeOf(() => referenceList(reader, resource, query));
            expect(await outcomeOf(() => listTerms(reader, resource, query)), context).toBe(expected);
            if (expected.startsWith("{")) compared += 1;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(250);
  }, 180_000);

  /** The values each parameter takes (`undefined`: not sent); a new parameter does not compile until it has some. */
  const parameterValues = () =>
    ({
      page: fc.constantFrom(1, 1, 2),
      per_page: fc.constantFrom(undefined, 2, 5),
      search: fc.constantFrom(undefined, "jazz", "%", "be-b", "ecole"),
      exclude: fc.constantFrom(undefined, [ids.jazz], [999_998]),
      include: fc.constantFrom(undefined, [ids.jazz, ids.music, ids.loud], [ids.quiet, 999_999]),
      order: fc.constantFrom(undefined, "asc", "desc"),
      orderby: fc.constantFrom(undefined, "id", "name", "slug", "count", "include"),
      hide_empty: fc.constantFrom(undefined, true, false),
      parent: fc.constantFrom(undefined, ids.music, 999_997),
      post: fc.constantFrom(undefined, ids.main, ids.protected, ids.draft, 999_996),
      event: fc.constantFrom(undefined, ids.main, ids.draft),
      slug: fc.constantFrom(undefined, "music", "be-bop"),
      ml_language: fc.constantFrom("en", "de"),
    }) satisfies Record<keyof typeof TERM_PARAMETERS, fc.Arbitrary<unknown>>;

  // Each generated query is read by every reader of both kinds, on both paths: more than the default time.
  it("answers generated queries as the Prisma list did, for every reader", async () => {
    const runs = Number(process.env.CALENDAR_FUZZ_RUNS ?? 40);
    await fc.assert(
      fc.asyncProperty(fc.record(parameterValues()), async (raw) => {
        const query = termListQuery.parse(
          Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined)),
        );
        for (const resource of [categoryResource, tagResource] as Array<TermResource<unknown>>) {
          for (const [name, actor] of Object.entries(actors)) {
            const reader = scope(actor, query.ml_language ?? "en");
            const context = `${resource.taxonomy} ${JSON.stringify(raw)} for ${name}`;
            const expected = await outcomeOf(() => referenceList(reader, resource, query));
            expect(await outcomeOf(() => listTerms(reader, resource, query)), context).toBe(expected);
          }
        }
      }),
      { numRuns: runs },
    );
  }, 180_000);

  it("lists the terms with their counts, parents and translations", async () => {
    const page = await listTerms(scope(ANONYMOUS), categoryResource, termListQuery.parse({ parent: ids.music }));
    expect(page.items.map((item) => [item.name, item.count, item.parent])).toEqual([
      ["100% Jazz", 1, ids.music],
      ["Jazz", 3, ids.music],
    ]);
    const music = await listTerms(scope(ANONYMOUS), categoryResource, termListQuery.parse({ slug: "music" }));
    expect(music.items[0]?.translations).toEqual({ fr: ids.musique, de: ids.musik });
    const hidden = await listTerms(scope(ANONYMOUS), tagResource, termListQuery.parse({ event: ids.protected }));
    expect(hidden).toMatchObject({ items: [], total: 0 });
  });
});
