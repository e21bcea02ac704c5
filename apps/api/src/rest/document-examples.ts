import type { RouterInputs } from "@calendar/core";

/**
 * The example body of each create operation, by collection path: what the explorer pre-fills. Typed by the
 * procedures' inputs, and a test creates each one through the API.
 */
export const CREATE_EXAMPLES: Record<string, object> = {
  "/events": {
    title: "Jazz on the terrace",
    start_date: "2027-07-03 19:30:00",
    end_date: "2027-07-03 22:00:00",
    timezone: "Europe/Paris",
    description: "<p>Standards and bossa nova with the Trio Lumière.</p>",
    excerpt: "An open-air jazz evening.",
    cost: "12 €",
    website: "https://example.org/jazz-terrace",
    featured: true,
    categories: ["Live music"],
    tags: ["jazz", "outdoor"],
    venue: { venue: "Terrasse du Port", address: "1 quai du Port", city: "Marseille", zip: "13002", country: "France" },
    organizer: { organizer: "Les Amis du Jazz", email: "contact@example.org" },
  } satisfies RouterInputs["events"]["create"],
  "/venues": {
    venue: "Town Hall",
    address: "1 Market Square",
    city: "Springfield",
    state: "IL",
    zip: "62701",
    country: "United States",
    phone: "+1 217 555 0100",
    website: "https://example.org/town-hall",
    show_map: true,
  } satisfies RouterInputs["venues"]["create"],
  "/organizers": {
    organizer: "City Arts Council",
    email: "info@example.org",
    phone: "+1 217 555 0199",
    website: "https://example.org/arts-council",
  } satisfies RouterInputs["organizers"]["create"],
  "/categories": {
    name: "Concerts",
    description: "Live music of every kind.",
  } satisfies RouterInputs["categories"]["create"],
  "/tags": { name: "Family friendly", description: "Suitable for children." } satisfies RouterInputs["tags"]["create"],
};
