/** The benchmark calendar's vocabulary: the cities, the names of venues, organizers, categories and tags, the words of titles and texts. */

export const CITIES = [
  { name: "Berlin", country: "Germany", zone: "Europe/Berlin", lat: 52.52, lng: 13.405 },
  { name: "Hamburg", country: "Germany", zone: "Europe/Berlin", lat: 53.551, lng: 9.993 },
  { name: "Munich", country: "Germany", zone: "Europe/Berlin", lat: 48.137, lng: 11.575 },
  { name: "Vienna", country: "Austria", zone: "Europe/Vienna", lat: 48.208, lng: 16.373 },
  { name: "Zurich", country: "Switzerland", zone: "Europe/Zurich", lat: 47.376, lng: 8.541 },
  { name: "Paris", country: "France", zone: "Europe/Paris", lat: 48.856, lng: 2.352 },
  { name: "Lyon", country: "France", zone: "Europe/Paris", lat: 45.764, lng: 4.835 },
  { name: "Brussels", country: "Belgium", zone: "Europe/Brussels", lat: 50.85, lng: 4.351 },
  { name: "Amsterdam", country: "Netherlands", zone: "Europe/Amsterdam", lat: 52.37, lng: 4.895 },
  { name: "London", country: "United Kingdom", zone: "Europe/London", lat: 51.507, lng: -0.128 },
] as const;

/** Where the benchmark's geo scenario searches: the centre of the first city. */
export const BENCHMARK_GEO_CENTRE = { lat: CITIES[0].lat, lng: CITIES[0].lng };

export const VENUE_KINDS = [
  "Hall",
  "Theatre",
  "Club",
  "Gallery",
  "Library",
  "Park Stage",
  "Cellar",
  "Studio",
  "Church",
  "Arena",
];
export const VENUE_NAMES = [
  "Riverside",
  "Old Town",
  "Harbour",
  "Linden",
  "Market",
  "North Gate",
  "Castle",
  "Station",
  "Garden",
];
export const STREETS = ["Main Street", "Market Square", "River Road", "Station Road", "Church Lane", "Park Avenue"];
export const ORGANIZER_KINDS = ["Society", "Collective", "Club", "Foundation", "Ensemble", "Association"];

export const TOP_CATEGORIES = ["Music", "Stage", "Film", "Art", "Family", "Learning", "Sport", "Food"];
export const SUBCATEGORIES = ["Classics", "New", "Local", "International"];
export const TAG_WORDS = [
  "free",
  "outdoor",
  "kids",
  "accessible",
  "live",
  "weekend",
  "evening",
  "english",
  "premiere",
  "festival",
  "students",
  "seniors",
  "indoor",
  "online",
  "charity",
  "workshop",
  "series",
  "late",
  "acoustic",
  "vegan",
];
export const TAG_VARIANTS = ["", "plus", "city", "club", "special", "summer", "winter", "spring", "autumn", "night"];

/** Title words, the same ones in each language so that translations read as translations. */
export const WORDS = {
  adjective: {
    en: ["Late-Night", "Open", "Little", "Grand", "Acoustic", "Midsummer", "Winter", "Family", "Silent", "Urban"],
    de: [
      "Späte",
      "Offene",
      "Kleine",
      "Große",
      "Akustische",
      "Mittsommer",
      "Winterliche",
      "Familien",
      "Stille",
      "Urbane",
    ],
    fr: [
      "Nocturne",
      "Ouverte",
      "Petite",
      "Grande",
      "Acoustique",
      "Estivale",
      "Hivernale",
      "Familiale",
      "Silencieuse",
      "Urbaine",
    ],
  },
  topic: {
    en: [
      "Jazz",
      "Piano",
      "Poetry",
      "Theatre",
      "Dance",
      "Photography",
      "Pottery",
      "Cinema",
      "Choir",
      "Science",
      "Chess",
      "Yoga",
    ],
    de: [
      "Jazz",
      "Klavier",
      "Lyrik",
      "Theater",
      "Tanz",
      "Fotografie",
      "Töpfer",
      "Kino",
      "Chor",
      "Wissenschafts",
      "Schach",
      "Yoga",
    ],
    fr: [
      "jazz",
      "piano",
      "poésie",
      "théâtre",
      "danse",
      "photographie",
      "poterie",
      "cinéma",
      "chorale",
      "science",
      "échecs",
      "yoga",
    ],
  },
  format: {
    en: ["Night", "Session", "Workshop", "Festival", "Evening", "Matinee", "Walk", "Marathon", "Lab", "Gala"],
    de: ["Nacht", "Session", "Werkstatt", "Festival", "Abend", "Matinee", "Spaziergang", "Marathon", "Labor", "Gala"],
    fr: ["Nuit", "Séance", "Atelier", "Festival", "Soirée", "Matinée", "Balade", "Marathon", "Labo", "Gala"],
  },
  city: { en: "in {city}", de: "in {city}", fr: "à {city}" },
  sentence: {
    en: "A programme for everyone who loves {topic}, with guests from the region.",
    de: "Ein Programm für alle, die {topic} lieben, mit Gästen aus der Region.",
    fr: "Un programme pour tous ceux qui aiment {topic}, avec des invités de la région.",
  },
} as const;

export const COSTS = ["", "", "Free", "5€", "12€", "10€ - 25€", "$15", "20$", "0 - 30€"];
export const HOURS = [10, 12, 14, 16, 18, 19, 19, 20, 20, 21];
