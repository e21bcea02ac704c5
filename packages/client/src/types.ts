import type { RouterInputs, RouterOutputs } from "@calendar/core";

export type { AppRouter, RouterInputs, RouterOutputs } from "@calendar/core";

/** A language of the calendar: `zh-hans`, `en`, `fr` or `de`. */
export type CalendarLanguage = NonNullable<RouterInputs["events"]["list"]["ml_language"]>;

/** An event as lists, creates, updates and deletes return it. */
export type CalendarEvent = RouterOutputs["events"]["create"];
/** An event as `get` and `getBySlug` return it: with its schema.org `json_ld`. */
export type CalendarEventDetail = RouterOutputs["events"]["get"];
export type EventList = RouterOutputs["events"]["list"];
export type EventListQuery = RouterInputs["events"]["list"];
export type EventCreateInput = RouterInputs["events"]["create"];
export type EventUpdateInput = RouterInputs["events"]["update"];
export type EventUpdateBySlugInput = RouterInputs["events"]["updateBySlug"];

export type CalendarVenue = RouterOutputs["venues"]["get"];
export type VenueList = RouterOutputs["venues"]["list"];
export type VenueListQuery = RouterInputs["venues"]["list"];
export type VenueCreateInput = RouterInputs["venues"]["create"];
export type VenueUpdateInput = RouterInputs["venues"]["update"];
export type VenueUpdateBySlugInput = RouterInputs["venues"]["updateBySlug"];

export type CalendarOrganizer = RouterOutputs["organizers"]["get"];
export type OrganizerList = RouterOutputs["organizers"]["list"];
export type OrganizerListQuery = RouterInputs["organizers"]["list"];
export type OrganizerCreateInput = RouterInputs["organizers"]["create"];
export type OrganizerUpdateInput = RouterInputs["organizers"]["update"];
export type OrganizerUpdateBySlugInput = RouterInputs["organizers"]["updateBySlug"];

export type CalendarCategory = RouterOutputs["categories"]["get"];
export type CategoryList = RouterOutputs["categories"]["list"];
export type CategoryListQuery = RouterInputs["categories"]["list"];
export type CategoryCreateInput = RouterInputs["categories"]["create"];
export type CategoryUpdateInput = RouterInputs["categories"]["update"];

export type CalendarTag = RouterOutputs["tags"]["get"];
export type TagList = RouterOutputs["tags"]["list"];
export type TagListQuery = RouterInputs["tags"]["list"];
export type TagCreateInput = RouterInputs["tags"]["create"];
export type TagUpdateInput = RouterInputs["tags"]["update"];

/** One change of the feed, as `changes.list` returns it. */
export type CalendarChange = RouterOutputs["changes"]["list"]["changes"][number];
export type ChangeList = RouterOutputs["changes"]["list"];
export type ChangeListQuery = RouterInputs["changes"]["list"];

/** A webhook subscription, as `webhooks.get` returns it (administrators only; the secret only on create and rotate). */
export type CalendarWebhook = RouterOutputs["webhooks"]["get"];
export type WebhookWithSecret = RouterOutputs["webhooks"]["create"];
export type WebhookCreateInput = RouterInputs["webhooks"]["create"];
export type WebhookUpdateInput = RouterInputs["webhooks"]["update"];
export type WebhookAttempts = RouterOutputs["webhooks"]["deliveries"];

// The names before 0.2, which shadow the DOM's global `Event` and its kin; removed in the release after next.
/** @deprecated Use `CalendarEvent`. */
export type Event = CalendarEvent;
/** @deprecated Use `CalendarEventDetail`. */
export type EventDetail = CalendarEventDetail;
/** @deprecated Use `CalendarVenue`. */
export type Venue = CalendarVenue;
/** @deprecated Use `CalendarOrganizer`. */
export type Organizer = CalendarOrganizer;
/** @deprecated Use `CalendarCategory`. */
export type Category = CalendarCategory;
/** @deprecated Use `CalendarTag`. */
export type Tag = CalendarTag;
/** @deprecated Use `CalendarChange`. */
export type Change = CalendarChange;
/** @deprecated Use `CalendarWebhook`. */
export type Webhook = CalendarWebhook;
