/**
 * What a password-protected event shows in place of its details to a reader without the password
 * (docs/behaviour.md, "Password-protected records"): its identity and dates stay.
 */
export const REDACTED_EVENT_DETAILS = {
  description: "",
  excerpt: "",
  website: "",
  cost: "",
  cost_details: { currency_symbol: "", currency_code: "", currency_position: "", values: [] },
  image: false,
  all_day: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  ticketed: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
};
