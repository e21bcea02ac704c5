import { DomainError, type RouterInputs } from "@calendar/core";
import { TRPCError } from "@trpc/server";
import { DateTime } from "luxon";
import type { Seeder } from "./seeder.ts";

/**
 * The demo calendar of `pnpm db:seed`: a season of a small city's cultural life in the coming months, with venues,
 * organizers, a two-level category tree, tags, two weekly series and translations into German and French.
 */

type EventBody = RouterInputs["events"]["create"];

/** A text in the three languages of the demo (the English one is the original). */
interface Translated {
  en: string;
  de: string;
  fr: string;
}

const TIMEZONE = "Europe/Berlin";

const CATEGORIES: Array<{ key: string; name: Translated; children?: Array<{ key: string; name: Translated }> }> = [
  {
    key: "music",
    name: { en: "Music", de: "Musik", fr: "Musique" },
    children: [
      { key: "jazz", name: { en: "Jazz", de: "Jazz", fr: "Jazz" } },
      { key: "classical", name: { en: "Classical", de: "Klassik", fr: "Classique" } },
      { key: "electronic", name: { en: "Electronic", de: "Elektronisch", fr: "Électronique" } },
    ],
  },
  {
    key: "stage",
    name: { en: "Stage", de: "Bühne", fr: "Scène" },
    children: [
      { key: "comedy", name: { en: "Comedy", de: "Komödie", fr: "Comédie" } },
      { key: "dance", name: { en: "Dance", de: "Tanz", fr: "Danse" } },
      { key: "family-theatre", name: { en: "Family theatre", de: "Familientheater", fr: "Théâtre jeune public" } },
    ],
  },
  { key: "workshops", name: { en: "Workshops", de: "Workshops", fr: "Ateliers" } },
  { key: "markets", name: { en: "Markets", de: "Märkte", fr: "Marchés" } },
  { key: "film", name: { en: "Film", de: "Film", fr: "Cinéma" } },
];

const TAGS: Array<{ key: string; name: Translated }> = [
  { key: "free", name: { en: "Free entry", de: "Eintritt frei", fr: "Entrée libre" } },
  { key: "outdoor", name: { en: "Outdoor", de: "Draußen", fr: "En plein air" } },
  { key: "kids", name: { en: "For children", de: "Für Kinder", fr: "Pour les enfants" } },
  { key: "accessible", name: { en: "Wheelchair accessible", de: "Barrierefrei", fr: "Accessible en fauteuil" } },
  { key: "live", name: { en: "Live music", de: "Live-Musik", fr: "Musique live" } },
  { key: "english", name: { en: "In English", de: "Auf Englisch", fr: "En anglais" } },
];

const VENUES = [
  {
    key: "hall",
    venue: { en: "Riverside Concert Hall", de: "Konzerthaus am Fluss", fr: "Salle de concert du Fleuve" },
    address: "Uferstraße 12",
    city: "Berlin",
    zip: "10115",
    country: "Germany",
    geo: [52.5321, 13.3849],
    description: {
      en: "A 1920s concert hall on the river, with 800 seats and a small chamber-music room.",
      de: "Ein Konzertsaal der 1920er Jahre am Fluss, mit 800 Plätzen und einem kleinen Kammermusiksaal.",
      fr: "Une salle de concert des années 1920 au bord du fleuve, 800 places et une petite salle de musique de chambre.",
    },
  },
  {
    key: "cellar",
    venue: { en: "Harbour Jazz Cellar", de: "Jazzkeller am Hafen", fr: "Cave de jazz du Port" },
    address: "Hafenweg 3",
    city: "Berlin",
    zip: "10997",
    country: "Germany",
    geo: [52.4996, 13.4448],
    description: {
      en: "A vaulted brick cellar by the old harbour; jazz six nights a week.",
      de: "Ein gewölbter Backsteinkeller am alten Hafen; Jazz an sechs Abenden der Woche.",
      fr: "Une cave voûtée en briques près du vieux port ; du jazz six soirs par semaine.",
    },
  },
  {
    key: "park",
    venue: {
      en: "Lindenpark Open-Air Stage",
      de: "Freilichtbühne im Lindenpark",
      fr: "Scène en plein air du Lindenpark",
    },
    address: "Lindenallee",
    city: "Berlin",
    zip: "10589",
    country: "Germany",
    geo: [52.5265, 13.3004],
    description: {
      en: "An open-air stage under old lime trees, used from May to September.",
      de: "Eine Freilichtbühne unter alten Linden, bespielt von Mai bis September.",
      fr: "Une scène en plein air sous de vieux tilleuls, ouverte de mai à septembre.",
    },
  },
  {
    key: "library",
    venue: { en: "Old Town Library", de: "Altstadtbibliothek", fr: "Bibliothèque de la vieille ville" },
    address: "Marktstraße 1",
    city: "Berlin",
    zip: "10178",
    country: "Germany",
    geo: [52.5163, 13.4101],
    description: {
      en: "The city library, with a reading hall for talks and a workshop room.",
      de: "Die Stadtbibliothek, mit einem Lesesaal für Vorträge und einem Werkstattraum.",
      fr: "La bibliothèque municipale, avec une salle de lecture pour les conférences et un atelier.",
    },
  },
  {
    key: "square",
    venue: { en: "Market Square", de: "Marktplatz", fr: "Place du Marché" },
    address: "Marktplatz",
    city: "Berlin",
    zip: "10178",
    country: "Germany",
    geo: [52.5186, 13.4081],
    description: {
      en: "The old market square; stalls on Saturdays from 8 to 13.",
      de: "Der alte Marktplatz; samstags Marktstände von 8 bis 13 Uhr.",
      fr: "La vieille place du marché ; des étals le samedi de 8 h à 13 h.",
    },
  },
  {
    key: "studio",
    venue: { en: "Studio 12", de: "Studio 12", fr: "Studio 12" },
    address: "Werkstattgasse 12",
    city: "Berlin",
    zip: "10245",
    country: "Germany",
    geo: [52.5075, 13.4541],
    description: {
      en: "A former print shop turned studio theatre and dance floor.",
      de: "Eine ehemalige Druckerei, heute Studiobühne und Tanzfläche.",
      fr: "Une ancienne imprimerie devenue théâtre-studio et piste de danse.",
    },
  },
] as const;

const ORGANIZERS = [
  {
    key: "arts",
    organizer: { en: "City Arts Office", de: "Kulturamt der Stadt", fr: "Service culturel de la ville" },
    email: "events@arts.example.org",
    phone: "+49 30 1234 5670",
    website: "https://arts.example.org",
  },
  {
    key: "jazzclub",
    organizer: { en: "Harbour Jazz Club", de: "Jazzclub am Hafen", fr: "Club de jazz du Port" },
    email: "hello@harbourjazz.example.org",
    website: "https://harbourjazz.example.org",
  },
  {
    key: "makers",
    organizer: { en: "Lindenau Makers", de: "Lindenauer Werkstatt", fr: "Les Faiseurs de Lindenau" },
    email: "workshops@makers.example.org",
  },
  {
    key: "stage",
    organizer: { en: "Young Stage Company", de: "Junge Bühne", fr: "Compagnie Jeune Scène" },
    phone: "+49 30 9876 5430",
  },
] as const;

type VenueKey = (typeof VENUES)[number]["key"];
type OrganizerKey = (typeof ORGANIZERS)[number]["key"];

interface DemoEvent {
  title: Translated;
  description: Translated;
  /** Days from the seed date, and the start and end wall times (or whole days). */
  day: number;
  start?: string;
  end?: string;
  days?: number;
  venue: VenueKey;
  organizers: OrganizerKey[];
  categories: string[];
  tags: string[];
  cost?: string;
  featured?: boolean;
  ticketed?: boolean;
  /** Also written in German and French. */
  translated?: boolean;
}

const ONE_OFFS: DemoEvent[] = [
  {
    title: {
      en: "Spring Symphony Concert",
      de: "Frühlingssinfoniekonzert",
      fr: "Concert symphonique de printemps",
    },
    description: {
      en: "<p>The City Orchestra plays Beethoven's Sixth and a new piece by a local composer.</p>",
      de: "<p>Das Stadtorchester spielt Beethovens Sechste und ein neues Werk einer hiesigen Komponistin.</p>",
      fr: "<p>L'orchestre de la ville joue la Sixième de Beethoven et une création d'une compositrice locale.</p>",
    },
    day: 9,
    start: "19:30",
    end: "21:45",
    venue: "hall",
    organizers: ["arts"],
    categories: ["classical"],
    tags: ["accessible"],
    cost: "25€ - 45€",
    ticketed: true,
    featured: true,
    translated: true,
  },
  {
    title: {
      en: "Open-Air Cinema: Modern Times",
      de: "Open-Air-Kino: Moderne Zeiten",
      fr: "Cinéma en plein air : Les Temps modernes",
    },
    description: {
      en: "<p>Chaplin's classic on the big screen under the lime trees. Bring a blanket.</p>",
      de: "<p>Chaplins Klassiker auf der großen Leinwand unter den Linden. Decke mitbringen!</p>",
      fr: "<p>Le classique de Chaplin sur grand écran sous les tilleuls. Apportez une couverture.</p>",
    },
    day: 16,
    start: "21:00",
    end: "23:00",
    venue: "park",
    organizers: ["arts"],
    categories: ["film"],
    tags: ["outdoor", "free"],
    cost: "Free",
    translated: true,
  },
  {
    title: {
      en: "Kids' Science Workshop",
      de: "Forscherwerkstatt für Kinder",
      fr: "Atelier scientifique pour enfants",
    },
    description: {
      en: "<p>Build a water rocket and find out why it flies. For ages 8 to 12.</p>",
      de: "<p>Wir bauen eine Wasserrakete und finden heraus, warum sie fliegt. Für 8- bis 12-Jährige.</p>",
      fr: "<p>Construisez une fusée à eau et découvrez pourquoi elle vole. De 8 à 12 ans.</p>",
    },
    day: 5,
    start: "10:00",
    end: "12:30",
    venue: "library",
    organizers: ["makers"],
    categories: ["workshops"],
    tags: ["kids", "free"],
    cost: "0€",
    translated: true,
  },
  {
    title: { en: "Improv Comedy Night", de: "Impro-Comedy-Abend", fr: "Soirée d'improvisation" },
    description: {
      en: "<p>You shout the suggestions, they make the show. In English and German.</p>",
      de: "<p>Ihr ruft die Stichworte, sie machen daraus die Show. Auf Englisch und Deutsch.</p>",
      fr: "<p>Vous lancez les idées, ils en font un spectacle. En anglais et en allemand.</p>",
    },
    day: 12,
    start: "20:00",
    end: "22:00",
    venue: "studio",
    organizers: ["stage"],
    categories: ["comedy"],
    tags: ["english"],
    cost: "15€",
    ticketed: true,
    translated: true,
  },
  {
    title: {
      en: "Contemporary Dance Evening",
      de: "Abend des zeitgenössischen Tanzes",
      fr: "Soirée de danse contemporaine",
    },
    description: {
      en: "<p>Three short pieces by young choreographers, followed by a talk with the dancers.</p>",
      de: "<p>Drei kurze Stücke junger Choreografinnen, danach ein Gespräch mit den Tänzerinnen.</p>",
      fr: "<p>Trois pièces courtes de jeunes chorégraphes, suivies d'une rencontre avec les danseuses.</p>",
    },
    day: 23,
    start: "19:00",
    end: "21:00",
    venue: "studio",
    organizers: ["stage"],
    categories: ["dance"],
    tags: [],
    cost: "18€",
    ticketed: true,
    translated: true,
  },
  {
    title: {
      en: "Summer Electronic Festival",
      de: "Sommerfestival für elektronische Musik",
      fr: "Festival électro d'été",
    },
    description: {
      en: "<p>Three days of electronic music on two stages, with local and international DJs.</p>",
      de: "<p>Drei Tage elektronische Musik auf zwei Bühnen mit lokalen und internationalen DJs.</p>",
      fr: "<p>Trois jours de musique électronique sur deux scènes, avec des DJ locaux et internationaux.</p>",
    },
    day: 45,
    days: 3,
    venue: "park",
    organizers: ["arts"],
    categories: ["electronic"],
    tags: ["outdoor", "live"],
    cost: "49€",
    ticketed: true,
    featured: true,
    translated: true,
  },
  {
    title: {
      en: "Family Theatre: The Little Prince",
      de: "Familientheater: Der kleine Prinz",
      fr: "Théâtre en famille : Le Petit Prince",
    },
    description: {
      en: "<p>Saint-Exupéry's story told with puppets and live music. About 60 minutes, for ages 5 and up.</p>",
      de: "<p>Saint-Exupérys Geschichte mit Puppen und Live-Musik erzählt. Etwa 60 Minuten, ab 5 Jahren.</p>",
      fr: "<p>Le conte de Saint-Exupéry avec des marionnettes et de la musique live. Environ 60 minutes, dès 5 ans.</p>",
    },
    day: 20,
    start: "15:00",
    end: "16:00",
    venue: "studio",
    organizers: ["stage"],
    categories: ["family-theatre"],
    tags: ["kids", "live"],
    cost: "8€",
    translated: true,
  },
  {
    title: { en: "Book Fair", de: "Büchermesse", fr: "Salon du livre" },
    description: {
      en: "<p>Independent publishers, readings every hour and a second-hand corner.</p>",
      de: "<p>Unabhängige Verlage, stündliche Lesungen und eine Antiquariatsecke.</p>",
      fr: "<p>Éditeurs indépendants, lectures toutes les heures et un coin d'occasion.</p>",
    },
    day: 33,
    days: 2,
    venue: "library",
    organizers: ["arts"],
    categories: ["markets"],
    tags: ["free", "accessible"],
    cost: "Free",
    translated: true,
  },
  {
    title: { en: "Pottery for Beginners", de: "Töpfern für Anfänger", fr: "Poterie pour débutants" },
    description: {
      en: "<p>Learn to centre clay on the wheel and throw your first bowl. Materials included.</p>",
      de: "<p>Ton auf der Scheibe zentrieren und die erste Schale drehen. Material inklusive.</p>",
      fr: "<p>Apprenez à centrer l'argile sur le tour et à tourner votre premier bol. Matériel compris.</p>",
    },
    day: 8,
    start: "18:00",
    end: "21:00",
    venue: "library",
    organizers: ["makers"],
    categories: ["workshops"],
    tags: [],
    cost: "35€",
    ticketed: true,
  },
  {
    title: {
      en: "Photography Walk Along the River",
      de: "Fotospaziergang am Fluss",
      fr: "Balade photo le long du fleuve",
    },
    description: {
      en: "<p>A two-hour walk with a photographer: light, framing and the city at golden hour.</p>",
      de: "<p>Zwei Stunden mit einem Fotografen unterwegs: Licht, Bildausschnitt und die Stadt im Abendlicht.</p>",
      fr: "<p>Deux heures de marche avec un photographe : lumière, cadrage et la ville à l'heure dorée.</p>",
    },
    day: 27,
    start: "18:30",
    end: "20:30",
    venue: "hall",
    organizers: ["makers"],
    categories: ["workshops"],
    tags: ["outdoor"],
    cost: "10€",
  },
  {
    title: { en: "Poetry Slam", de: "Poetry Slam", fr: "Slam de poésie" },
    description: {
      en: "<p>Eight poets, five minutes each, and the audience decides.</p>",
      de: "<p>Acht Poetinnen und Poeten, je fünf Minuten, und das Publikum entscheidet.</p>",
      fr: "<p>Huit poètes, cinq minutes chacun, et le public décide.</p>",
    },
    day: 38,
    start: "20:00",
    end: "22:00",
    venue: "cellar",
    organizers: ["stage"],
    categories: ["stage"],
    tags: ["english"],
    cost: "7€",
  },
  {
    title: { en: "Midsummer Street Festival", de: "Mittsommer-Straßenfest", fr: "Fête de la Saint-Jean" },
    description: {
      en: "<p>Music on every corner, food stalls and a parade at six. The whole old town is closed to cars.</p>",
      de: "<p>Musik an jeder Ecke, Essensstände und um sechs ein Umzug. Die ganze Altstadt ist autofrei.</p>",
      fr: "<p>De la musique à chaque coin de rue, des stands de cuisine et un défilé à 18 heures. Toute la vieille ville est piétonne.</p>",
    },
    day: 60,
    days: 1,
    venue: "square",
    organizers: ["arts"],
    categories: ["music", "markets"],
    tags: ["outdoor", "free", "live", "kids"],
    cost: "Free",
    featured: true,
    translated: true,
  },
  {
    title: { en: "Repair Café", de: "Repair-Café", fr: "Repair Café" },
    description: {
      en: "<p>Bring a broken toaster, bike or jumper; volunteers help you mend it.</p>",
      de: "<p>Kaputten Toaster, Fahrrad oder Pullover mitbringen: Ehrenamtliche helfen beim Reparieren.</p>",
      fr: "<p>Apportez un grille-pain, un vélo ou un pull abîmé : des bénévoles vous aident à le réparer.</p>",
    },
    day: 14,
    start: "14:00",
    end: "17:00",
    venue: "library",
    organizers: ["makers"],
    categories: ["workshops"],
    tags: ["free"],
    cost: "Free",
  },
  {
    title: { en: "Chamber Music at Noon", de: "Kammermusik am Mittag", fr: "Musique de chambre à midi" },
    description: {
      en: "<p>A 45-minute lunchtime concert: Schubert's Trout Quintet.</p>",
      de: "<p>Ein 45-minütiges Mittagskonzert: Schuberts Forellenquintett.</p>",
      fr: "<p>Un concert de 45 minutes à l'heure du déjeuner : le Quintette La Truite de Schubert.</p>",
    },
    day: 30,
    start: "12:30",
    end: "13:15",
    venue: "hall",
    organizers: ["arts"],
    categories: ["classical"],
    tags: ["accessible"],
    cost: "5€",
  },
];

/** Weekly series: the first is the parent of the others (`post_parent`). */
const SERIES: Array<Omit<DemoEvent, "day"> & { firstDay: number; weeks: number }> = [
  {
    title: { en: "Friday Jazz Night", de: "Jazzabend am Freitag", fr: "Soirée jazz du vendredi" },
    description: {
      en: "<p>The house trio and a guest soloist; jam session after eleven.</p>",
      de: "<p>Das Haustrio und ein Gastsolist; ab elf Uhr Jam-Session.</p>",
      fr: "<p>Le trio maison et un soliste invité ; jam session après 23 heures.</p>",
    },
    firstDay: 3,
    weeks: 8,
    start: "20:00",
    end: "23:00",
    venue: "cellar",
    organizers: ["jazzclub"],
    categories: ["jazz"],
    tags: ["live"],
    cost: "12€",
    translated: true,
  },
  {
    title: { en: "Farmers' Market", de: "Bauernmarkt", fr: "Marché paysan" },
    description: {
      en: "<p>Vegetables, cheese, bread and flowers from the region.</p>",
      de: "<p>Gemüse, Käse, Brot und Blumen aus der Region.</p>",
      fr: "<p>Légumes, fromages, pain et fleurs de la région.</p>",
    },
    firstDay: 4,
    weeks: 8,
    start: "08:00",
    end: "13:00",
    venue: "square",
    organizers: ["arts"],
    categories: ["markets"],
    tags: ["outdoor", "free"],
    cost: "Free",
  },
];

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
