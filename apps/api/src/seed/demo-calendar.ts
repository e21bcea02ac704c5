import { DomainError, type RouterInputs } from "@calendar/core";
import { TRPCError } from "@trpc/server";
import { DateTime } from "luxon";
import {
  CATEGORIES,
  type DemoEvent,
  ONE_OFFS,
  ORGANIZERS,
  SERIES,
  TAGS,
  TIMEZONE,
  type Translated,
  VENUES,
} from "./demo-calendar.data.ts";
import type { Seeder } from "./seeder.ts";

/**
 * The demo calendar of `pnpm db:seed`: a season of a small city's cultural life in the coming months, with venues,
 * organizers, a two-level category tree, tags, two weekly series and translations into German and French.
 */

type EventBody = RouterInputs["events"]["create"];

const LANGUAGES = ["en", "de", "fr"] as const;

interface DemoIds {
  categories: Map<string, number>;
  tags: Map<string, number>;
  venues: Map<string, number>;
  organizers: Map<string, number>;
}

function idOf(ids: Map<string, number>, key: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`The demo data names an unknown record "${key}".`);
  return id;
}

/** The term created, or the one of that name a calendar seeded before (`--force`) already has. */
async function existingOr(creating: Promise<{ id: number }>): Promise<{ id: number }> {
  try {
    return await creating;
  } catch (error) {
    const cause = error instanceof TRPCError ? error.cause : undefined;
    const existing = cause instanceof DomainError && cause.code === "term_exists" ? cause.extra.term_id : undefined;
    if (typeof existing !== "number") throw error;
    return { id: existing };
  }
}

async function seedTerms(seeder: Seeder): Promise<Pick<DemoIds, "categories" | "tags">> {
  const categories = new Map<string, number>();
  const tags = new Map<string, number>();
  /** The category ids of each language, `<language>:<key>`, for the parents of the translations. */
  const translatedCategories = new Map<string, number>();
  const category = async (key: string, name: Translated, parentKey?: string) => {
    for (const language of LANGUAGES) {
      const parent = parentKey ? idOf(translatedCategories, `${language}:${parentKey}`) : undefined;
      const original = translatedCategories.get(`en:${key}`);
      const existing = original && (await seeder.caller.categories.get({ id: original })).translations[language];
      const created = existing
        ? { id: existing }
        : await existingOr(
            seeder.caller.categories.create({
              name: name[language],
              ...(parent ? { parent } : {}),
              ...(original ? { translation_of: original } : {}),
              ml_language: language,
            }),
          );
      translatedCategories.set(`${language}:${key}`, created.id);
    }
    categories.set(key, idOf(translatedCategories, `en:${key}`));
  };
  for (const top of CATEGORIES) {
    await category(top.key, top.name);
    for (const child of top.children ?? []) await category(child.key, child.name, top.key);
  }
  for (const tag of TAGS) {
    const created = await existingOr(seeder.caller.tags.create({ name: tag.name.en }));
    tags.set(tag.key, created.id);
    const { translations } = await seeder.caller.tags.get({ id: created.id });
    for (const language of TRANSLATIONS) {
      if (translations[language]) continue;
      await existingOr(
        seeder.caller.tags.create({ name: tag.name[language], translation_of: created.id, ml_language: language }),
      );
    }
  }
  return { categories, tags };
}

const TRANSLATIONS = ["de", "fr"] as const;

/**
 * The venues and organizers in English, each translated into German and French: an event links the one in its
 * own language (the event write picks the translation of the English id it is given). Over an earlier seed
 * (`--force`) the English ones are found again as duplicates, and their translations are kept.
 */
async function seedPlaces(seeder: Seeder): Promise<Pick<DemoIds, "venues" | "organizers">> {
  const venues = new Map<string, number>();
  for (const { key, geo, venue, description, ...place } of VENUES) {
    const inLanguage = (language: (typeof LANGUAGES)[number]) => ({
      ...place,
      venue: venue[language],
      description: description[language],
      geo_lat: geo[0],
      geo_lng: geo[1],
    });
    const original = await seeder.caller.venues.create(inLanguage("en"));
    venues.set(key, original.id);
    for (const language of TRANSLATIONS) {
      if (original.translations[language]) continue;
      await seeder.caller.venues.create({
        ...inLanguage(language),
        translation_of: original.id,
        ml_language: language,
      });
    }
  }
  const organizers = new Map<string, number>();
  for (const { key, organizer, ...contact } of ORGANIZERS) {
    const original = await seeder.caller.organizers.create({ ...contact, organizer: organizer.en });
    organizers.set(key, original.id);
    for (const language of TRANSLATIONS) {
      if (original.translations[language]) continue;
      await seeder.caller.organizers.create({
        ...contact,
        organizer: organizer[language],
        translation_of: original.id,
        ml_language: language,
      });
    }
  }
  return { venues, organizers };
}

function schedule(
  event: Omit<DemoEvent, "day">,
  day: DateTime,
): Pick<EventBody, "start_date" | "end_date" | "all_day"> {
  const date = day.toFormat("yyyy-MM-dd");
  if (event.days !== undefined) {
    return { start_date: date, end_date: day.plus({ days: event.days - 1 }).toFormat("yyyy-MM-dd"), all_day: true };
  }
  return { start_date: `${date} ${event.start ?? "00:00"}:00`, end_date: `${date} ${event.end ?? "23:59"}:00` };
}

function bodyOf(event: Omit<DemoEvent, "day">, day: DateTime, ids: DemoIds, language: (typeof LANGUAGES)[number]) {
  return {
    title: event.title[language],
    description: event.description[language],
    ...schedule(event, day),
    timezone: TIMEZONE,
    venue: [idOf(ids.venues, event.venue)],
    organizer: event.organizers.map((key) => idOf(ids.organizers, key)),
    categories: event.categories.map((key) => idOf(ids.categories, key)),
    tags: event.tags.map((key) => idOf(ids.tags, key)),
    ...(event.cost ? { cost: event.cost } : {}),
    featured: event.featured ?? false,
    ticketed: event.ticketed ?? false,
    ml_language: language,
  } satisfies EventBody;
}

/** An event and, when it is translated, its German and French versions. Returns the English one's id. */
async function seedEvent(
  seeder: Seeder,
  event: Omit<DemoEvent, "day">,
  day: DateTime,
  ids: DemoIds,
  parents: Partial<Record<(typeof LANGUAGES)[number], number>> = {},
): Promise<Partial<Record<(typeof LANGUAGES)[number], number>>> {
  const created: Partial<Record<(typeof LANGUAGES)[number], number>> = {};
  for (const language of event.translated ? LANGUAGES : (["en"] as const)) {
    const parent = parents[language];
    const original = created.en;
    const { id } = await seeder.caller.events.create({
      ...bodyOf(event, day, ids, language),
      ...(parent ? { post_parent: parent } : {}),
      ...(language !== "en" && original ? { translation_of: original } : {}),
    });
    created[language] = id;
  }
  return created;
}

export interface SeedSummary {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
}

/** Writes the demo calendar through the procedures, starting from `today` (in the events' time zone). */
export async function seedDemoCalendar(seeder: Seeder, today: Date = new Date()): Promise<SeedSummary> {
  const start = DateTime.fromJSDate(today, { zone: TIMEZONE }).startOf("day");
  const ids = { ...(await seedTerms(seeder)), ...(await seedPlaces(seeder)) };
  let events = 0;
  const count = (created: object) => {
    events += Object.keys(created).length;
    return created;
  };
  for (const event of ONE_OFFS) count(await seedEvent(seeder, event, start.plus({ days: event.day }), ids));
  for (const series of SERIES) {
    const parents = count(await seedEvent(seeder, series, start.plus({ days: series.firstDay }), ids));
    for (let week = 1; week < series.weeks; week++) {
      count(await seedEvent(seeder, series, start.plus({ days: series.firstDay + 7 * week }), ids, parents));
    }
  }
  return {
    events,
    venues: ids.venues.size * LANGUAGES.length,
    organizers: ids.organizers.size * LANGUAGES.length,
    categories: ids.categories.size * LANGUAGES.length,
    tags: ids.tags.size * LANGUAGES.length,
  };
}
