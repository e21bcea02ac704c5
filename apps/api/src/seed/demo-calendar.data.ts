/** The demo calendar's content: its categories, tags, venues, organizers, one-off events and weekly series. */

/** A text in the three languages of the demo (the English one is the original). */
export interface Translated {
  en: string;
  de: string;
  fr: string;
}

export const TIMEZONE = "Europe/Berlin";

export const CATEGORIES: Array<{ key: string; name: Translated; children?: Array<{ key: string; name: Translated }> }> =
  [
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

export const TAGS: Array<{ key: string; name: Translated }> = [
  { key: "free", name: { en: "Free entry", de: "Eintritt frei", fr: "Entrée libre" } },
  { key: "outdoor", name: { en: "Outdoor", de: "Draußen", fr: "En plein air" } },
  { key: "kids", name: { en: "For children", de: "Für Kinder", fr: "Pour les enfants" } },
  { key: "accessible", name: { en: "Wheelchair accessible", de: "Barrierefrei", fr: "Accessible en fauteuil" } },
  { key: "live", name: { en: "Live music", de: "Live-Musik", fr: "Musique live" } },
  { key: "english", name: { en: "In English", de: "Auf Englisch", fr: "En anglais" } },
];

export const VENUES = [
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

export const ORGANIZERS = [
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

export interface DemoEvent {
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

export const ONE_OFFS: DemoEvent[] = [
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
export const SERIES: Array<Omit<DemoEvent, "day"> & { firstDay: number; weeks: number }> = [
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
