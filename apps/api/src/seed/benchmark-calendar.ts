import { createEventsInBulk, type Language, type RouterInputs } from "@calendar/core";
import { DateTime } from "luxon";
import {
  CITIES,
  COSTS,
  HOURS,
  ORGANIZER_KINDS,
  STREETS,
  SUBCATEGORIES,
  TAG_VARIANTS,
  TAG_WORDS,
  TOP_CATEGORIES,
  VENUE_KINDS,
  VENUE_NAMES,
  WORDS,
} from "./benchmark-calendar.words.ts";
import type { SeedSummary } from "./demo-calendar.ts";
import { SeededRandom } from "./random.ts";
import type { Seeder } from "./seeder.ts";

/**
 * The benchmark calendar of issue 7: `events` events over three years (one year back, two ahead), from 1,000
 * events on 500 venues (half with coordinates), 300 organizers, 40 categories in a two-level tree and 200 tags
 * (fewer for a smaller calendar, see `benchmarkShape`), several links per event,
 * 10 % drafts, 5 % password-protected, in three languages (60 % English; the German and French events translate
 * English ones). The same size always gives the same calendar (a seeded random source; dates relative to today).
 */

type EventBody = RouterInputs["events"]["create"];

/** The linked records of a calendar of `FULL_SHAPE_EVENTS` events or more (all the benchmark's sizes). */
const FULL_SHAPE = { venues: 500, organizers: 300, subcategories: 4, tags: 200 };
const FULL_SHAPE_EVENTS = 1_000;

export type BenchmarkShape = typeof FULL_SHAPE;

/**
 * The linked records of a calendar of `events` events: issue 7's from 1,000 events, proportionally fewer below
 * (at least one venue and organizer, eight top categories and ten tags), so that fifty events do not come with
 * five hundred venues.
 */
export function benchmarkShape(events: number): BenchmarkShape {
  const share = Math.min(1, events / FULL_SHAPE_EVENTS);
  return {
    venues: Math.max(1, Math.round(FULL_SHAPE.venues * share)),
    organizers: Math.max(1, Math.round(FULL_SHAPE.organizers * share)),
    subcategories: Math.round(FULL_SHAPE.subcategories * share),
    tags: Math.max(10, Math.round(FULL_SHAPE.tags * share)),
  };
}

/** Events per transaction of the bulk path. */
const BATCH = 5_000;

interface Linkables {
  venues: Array<{ id: number; zone: string; city: string }>;
  organizers: number[];
  categories: number[];
  tags: number[];
}

/** An event's language-neutral facts: written once in English and again, the same, in its translations. */
interface EventPlan {
  words: { adjective: number; topic: number; format: number };
  start: DateTime;
  minutes: number;
  allDayDays: number | undefined;
  venue: Linkables["venues"][number] | undefined;
  organizers: number[];
  categories: number[];
  tags: number[];
  draft: boolean;
  password: boolean;
  featured: boolean;
  ticketed: boolean;
  hidden: boolean;
  cost: string;
  website: boolean;
}

function planEvent(random: SeededRandom, linkables: Linkables, today: DateTime): EventPlan {
  const day = today.plus({ days: random.integer(-365, 730) });
  const venue = random.chance(0.95) ? random.pickSkewed(linkables.venues) : undefined;
  const allDay = random.chance(0.05);
  return {
    words: {
      adjective: random.integer(0, WORDS.adjective.en.length - 1),
      topic: random.integer(0, WORDS.topic.en.length - 1),
      format: random.integer(0, WORDS.format.en.length - 1),
    },
    start: day.set({ hour: random.pick(HOURS), minute: random.pick([0, 0, 15, 30, 45]) }),
    minutes: random.pick([60, 90, 120, 150, 180, 240]),
    allDayDays: allDay ? random.integer(1, 3) : undefined,
    venue,
    organizers: random.sample(linkables.organizers, random.integer(1, 2), (items) => random.pickSkewed(items)),
    categories: random.sample(linkables.categories, random.integer(1, 2), (items) => random.pickSkewed(items)),
    tags: random.sample(linkables.tags, random.integer(1, 4), (items) => random.pickSkewed(items)),
    draft: random.chance(0.1),
    password: random.chance(0.05),
    featured: random.chance(0.1),
    ticketed: random.chance(0.3),
    hidden: random.chance(0.01),
    cost: random.pick(COSTS),
    website: random.chance(0.3),
  };
}

type SeedLanguage = "en" | "de" | "fr";

function bodyOf(plan: EventPlan, language: SeedLanguage, index: number, translationOf?: number): EventBody {
  const { adjective, topic, format } = plan.words;
  const place = plan.venue ? ` ${WORDS.city[language].replace("{city}", plan.venue.city)}` : "";
  const title = `${WORDS.adjective[language][adjective]} ${WORDS.topic[language][topic]} ${WORDS.format[language][format]}${place}`;
  const sentence = WORDS.sentence[language].replace("{topic}", WORDS.topic[language][topic] ?? "");
  const zone = plan.venue?.zone ?? "UTC";
  // The plan's wall time, read in the venue's zone by the service: formatted in UTC, no zone rules are consulted.
  const start = plan.start;
  const dates = plan.allDayDays
    ? { start_date: start.toISODate() ?? "", end_date: start.plus({ days: plan.allDayDays - 1 }).toISODate() ?? "" }
    : {
        start_date: start.toFormat("yyyy-MM-dd HH:mm:ss"),
        end_date: start.plus({ minutes: plan.minutes }).toFormat("yyyy-MM-dd HH:mm:ss"),
      };
  return {
    title,
    description: `<p>${sentence}</p><p>${title}: ${index}.</p>`,
    excerpt: sentence,
    ...dates,
    all_day: plan.allDayDays !== undefined,
    timezone: zone,
    ...(plan.venue ? { venue: [plan.venue.id] } : {}),
    organizer: plan.organizers,
    categories: plan.categories,
    tags: plan.tags,
    status: plan.draft ? "draft" : "publish",
    ...(plan.password ? { password: "secret" } : {}),
    featured: plan.featured,
    ticketed: plan.ticketed,
    hide_from_listings: plan.hidden,
    ...(plan.cost ? { cost: plan.cost } : {}),
    ...(plan.website ? { website: `https://example.org/events/${index}` } : {}),
    ...(translationOf ? { translation_of: translationOf } : {}),
    ml_language: language,
  };
}

async function seedLinkables(seeder: Seeder, random: SeededRandom, shape: BenchmarkShape): Promise<Linkables> {
  const { caller } = seeder;
  const categories: number[] = [];
  for (const top of TOP_CATEGORIES) {
    const parent = (await caller.categories.create({ name: top, description: `Everything ${top.toLowerCase()}.` })).id;
    categories.push(parent);
    for (const sub of SUBCATEGORIES.slice(0, shape.subcategories)) {
      categories.push((await caller.categories.create({ name: `${top}: ${sub}`, parent })).id);
    }
  }
  const tags: number[] = [];
  const tagNames = TAG_VARIANTS.flatMap((variant) => TAG_WORDS.map((word) => `${word} ${variant}`.trim()));
  for (const name of tagNames.slice(0, shape.tags)) tags.push((await caller.tags.create({ name })).id);
  const venues: Linkables["venues"] = [];
  for (let index = 0; index < shape.venues; index++) {
    const city = CITIES[index % CITIES.length] ?? CITIES[0];
    const name = `${random.pick(VENUE_NAMES)} ${random.pick(VENUE_KINDS)} ${city.name} ${index + 1}`;
    const located = index % 2 === 0;
    const created = await caller.venues.create({
      venue: name,
      description: `<p>${name}: a venue in ${city.name}.</p>`,
      address: `${random.integer(1, 120)} ${random.pick(STREETS)}`,
      city: city.name,
      country: city.country,
      zip: String(random.integer(10_000, 99_999)),
      phone: `+49 30 ${random.integer(100_000, 999_999)}`,
      ...(located
        ? { geo_lat: city.lat + (random.next() - 0.5) * 0.3, geo_lng: city.lng + (random.next() - 0.5) * 0.4 }
        : {}),
    });
    venues.push({ id: created.id, zone: city.zone, city: city.name });
  }
  const organizers: number[] = [];
  for (let index = 0; index < shape.organizers; index++) {
    const city = CITIES[index % CITIES.length] ?? CITIES[0];
    const name = `${city.name} ${random.pick(WORDS.topic.en)} ${random.pick(ORGANIZER_KINDS)} ${index + 1}`;
    const created = await caller.organizers.create({
      organizer: name,
      email: `contact${index + 1}@organizers.example.org`,
      website: `https://organizers.example.org/${index + 1}`,
    });
    organizers.push(created.id);
  }
  return { venues, organizers, categories, tags };
}

export interface BenchmarkSeedOptions {
  events: number;
  today?: Date;
  /** Called after each batch with the events written so far. */
  onProgress?: (done: number, total: number) => void;
}

/** Writes the benchmark calendar: the linked records through the procedures, the events through the bulk path. */
export async function seedBenchmarkCalendar(seeder: Seeder, options: BenchmarkSeedOptions): Promise<SeedSummary> {
  const random = new SeededRandom(7);
  const today = DateTime.fromJSDate(options.today ?? new Date(), { zone: "UTC" }).startOf("day");
  const linkables = await seedLinkables(seeder, random, benchmarkShape(options.events));
  const translated = Math.floor(options.events * 0.2);
  const english = options.events - 2 * translated;
  const plans = Array.from({ length: english }, () => planEvent(random, linkables, today));
  let done = 0;
  const write = async (language: Language, bodies: EventBody[]) => {
    const ids = await createEventsInBulk(seeder.scope(language), bodies);
    done += ids.length;
    options.onProgress?.(done, options.events);
    return ids;
  };
  const englishIds: number[] = [];
  for (let from = 0; from < english; from += BATCH) {
    const batch = plans.slice(from, from + BATCH).map((plan, offset) => bodyOf(plan, "en", from + offset + 1));
    englishIds.push(...(await write("en", batch)));
  }
  for (const language of ["de", "fr"] as const) {
    for (let from = 0; from < translated; from += BATCH) {
      const batch = plans
        .slice(from, Math.min(from + BATCH, translated))
        .map((plan, offset) => bodyOf(plan, language, from + offset + 1, englishIds[from + offset]));
      await write(language, batch);
    }
  }
  return {
    events: options.events,
    venues: linkables.venues.length,
    organizers: linkables.organizers.length,
    categories: linkables.categories.length,
    tags: linkables.tags.length,
  };
}
