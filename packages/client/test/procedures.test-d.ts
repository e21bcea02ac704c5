import { describe, expectTypeOf, it } from "vitest";
import {
  type CalendarCategory,
  type CalendarChange,
  type CalendarClientError,
  type CalendarErrorCode,
  type CalendarEvent,
  type CalendarEventDetail,
  type CalendarLanguage,
  type CalendarOrganizer,
  type CalendarTag,
  type CalendarVenue,
  type CalendarWebhook,
  type Category,
  type CategoryCreateInput,
  type CategoryList,
  type CategoryListQuery,
  type CategoryUpdateInput,
  type Change,
  createCalendarClient,
  type Event,
  type EventCreateInput,
  type EventDetail,
  type EventList,
  type EventListQuery,
  type EventUpdateBySlugInput,
  type EventUpdateInput,
  ifMatch,
  ifUnmodifiedSince,
  type Organizer,
  type OrganizerCreateInput,
  type OrganizerList,
  type OrganizerListQuery,
  type OrganizerUpdateBySlugInput,
  type OrganizerUpdateInput,
  type PreconditionOptions,
  type Tag,
  type TagCreateInput,
  type TagList,
  type TagListQuery,
  type TagUpdateInput,
  type Venue,
  type VenueCreateInput,
  type VenueList,
  type VenueListQuery,
  type VenueUpdateBySlugInput,
  type VenueUpdateInput,
  type Webhook,
  type WebhookAttempts,
  type WebhookWithSecret,
  type WritePrecondition,
} from "../src/index.ts";

// Type tests only: nothing here runs, the client is never called.
const client = createCalendarClient({ url: "http://127.0.0.1:3000" });
type Language = CalendarLanguage | undefined;
type ById = { id: number; ml_language?: Language };
type GetById = { id: number; password?: string | undefined; ml_language?: Language };
type GetBySlug = { slug: string; password?: string | undefined; ml_language?: Language };
type DeleteById = { id: number; force?: boolean | undefined; ml_language?: Language };
type RecurrenceScope = "this" | "following" | "all";
type DeleteBySlug = { slug: string; force?: boolean | undefined; ml_language?: Language };

describe("languages", () => {
  it("are the four of the calendar", () => {
    expectTypeOf<CalendarLanguage>().toEqualTypeOf<"zh-hans" | "en" | "fr" | "de">();
  });
});

describe("events", () => {
  it("list: a query in, a page of events out", () => {
    expectTypeOf(client.events.list.query).parameter(0).toEqualTypeOf<EventListQuery>();
    expectTypeOf(client.events.list.query).returns.resolves.toEqualTypeOf<EventList>();
    expectTypeOf(client.events.occurrences.query).parameter(0).toExtend<{ id: number }>();
    expectTypeOf(client.events.occurrences.query).returns.resolves.toEqualTypeOf<EventList>();
    expectTypeOf<EventList["events"]>().toEqualTypeOf<CalendarEvent[]>();
    expectTypeOf<EventList>().toHaveProperty("total").toEqualTypeOf<number>();
    expectTypeOf<EventList>().toHaveProperty("total_pages").toEqualTypeOf<number>();
    expectTypeOf<EventListQuery>().toHaveProperty("featured").toEqualTypeOf<boolean | undefined>();
    expectTypeOf<EventListQuery>().toHaveProperty("page").toEqualTypeOf<number | undefined>();
    expectTypeOf<{ categories: [3, "jazz"]; per_page: 5; ml_language: "de" }>().toExtend<EventListQuery>();
    expectTypeOf<{ featured: "yes" }>().not.toExtend<EventListQuery>();
  });

  it("create: title and dates required, the event out", () => {
    expectTypeOf(client.events.create.mutate).parameter(0).toEqualTypeOf<EventCreateInput>();
    expectTypeOf(client.events.create.mutate).returns.resolves.toEqualTypeOf<CalendarEvent>();
    expectTypeOf<{ title: "Gig"; start_date: "2030-01-01 20:00:00"; end_date: 1 }>().toExtend<EventCreateInput>();
    expectTypeOf<{ title: "Gig"; start_date: "2030-01-01 20:00:00" }>().not.toExtend<EventCreateInput>();
    expectTypeOf<EventCreateInput>()
      .toHaveProperty("status")
      .toEqualTypeOf<"publish" | "future" | "draft" | "pending" | "private" | undefined>();
    expectTypeOf<CalendarEvent>().toHaveProperty("id").toEqualTypeOf<number>();
    expectTypeOf<CalendarEvent>().toHaveProperty("title").toEqualTypeOf<string>();
    expectTypeOf<CalendarEvent>().toHaveProperty("start_date").toEqualTypeOf<string>();
    expectTypeOf<CalendarEvent>().toHaveProperty("featured").toEqualTypeOf<boolean | null>();
    expectTypeOf<CalendarEvent>().not.toHaveProperty("json_ld");
  });

  it("get and getBySlug: an id or a slug with an optional password in, the event with json_ld out", () => {
    expectTypeOf(client.events.get.query).parameter(0).toEqualTypeOf<GetById>();
    expectTypeOf(client.events.getBySlug.query).parameter(0).toEqualTypeOf<GetBySlug>();
    expectTypeOf(client.events.get.query).returns.resolves.toEqualTypeOf<CalendarEventDetail>();
    expectTypeOf(client.events.getBySlug.query).returns.resolves.toEqualTypeOf<CalendarEventDetail>();
    expectTypeOf<CalendarEventDetail>().toExtend<CalendarEvent>();
    expectTypeOf<CalendarEventDetail>().toHaveProperty("json_ld").toHaveProperty("@type").toEqualTypeOf<"Event">();
  });

  it("update and updateBySlug: every field optional, the event out", () => {
    expectTypeOf(client.events.update.mutate).parameter(0).toEqualTypeOf<EventUpdateInput>();
    expectTypeOf(client.events.updateBySlug.mutate).parameter(0).toEqualTypeOf<EventUpdateBySlugInput>();
    expectTypeOf(client.events.update.mutate).returns.resolves.toEqualTypeOf<CalendarEvent>();
    expectTypeOf(client.events.updateBySlug.mutate).returns.resolves.toEqualTypeOf<CalendarEvent>();
    expectTypeOf<{ id: 1 }>().toExtend<EventUpdateInput>();
    expectTypeOf<{ slug: "gig" }>().toExtend<EventUpdateBySlugInput>();
    expectTypeOf<{ title: "No id" }>().not.toExtend<EventUpdateInput>();
    expectTypeOf<EventUpdateInput["recurrence_scope"]>().toEqualTypeOf<RecurrenceScope | undefined>();
    expectTypeOf<EventUpdateBySlugInput["recurrence_scope"]>().toEqualTypeOf<RecurrenceScope | undefined>();
  });

  it("delete and deleteBySlug: force, recurrence_scope and password optional, the event out", () => {
    expectTypeOf(client.events.delete.mutate).parameter(0).toEqualTypeOf<{
      id: number;
      force?: boolean | undefined;
      recurrence_scope?: RecurrenceScope | undefined;
      password?: string | undefined;
      ml_language?: Language;
    }>();
    expectTypeOf(client.events.deleteBySlug.mutate).parameter(0).toEqualTypeOf<{
      slug: string;
      force?: boolean | undefined;
      recurrence_scope?: RecurrenceScope | undefined;
      password?: string | undefined;
      ml_language?: Language;
    }>();
    expectTypeOf(client.events.delete.mutate).returns.resolves.toEqualTypeOf<CalendarEvent>();
    expectTypeOf(client.events.deleteBySlug.mutate).returns.resolves.toEqualTypeOf<CalendarEvent>();
  });

  it("has exactly these procedures", () => {
    expectTypeOf<Extract<keyof typeof client.events, string>>().toEqualTypeOf<
      "list" | "occurrences" | "create" | "get" | "getBySlug" | "update" | "updateBySlug" | "delete" | "deleteBySlug"
    >();
  });
});

describe("venues", () => {
  it("list: a query in, a page of venues out", () => {
    expectTypeOf(client.venues.list.query).parameter(0).toEqualTypeOf<VenueListQuery>();
    expectTypeOf(client.venues.list.query).returns.resolves.toEqualTypeOf<VenueList>();
    expectTypeOf<VenueList["venues"]>().toEqualTypeOf<CalendarVenue[]>();
    expectTypeOf<VenueList>().toHaveProperty("total").toEqualTypeOf<number>();
    expectTypeOf<VenueListQuery>().toHaveProperty("has_events").toEqualTypeOf<boolean | undefined>();
  });

  it("create: the name required, the venue out", () => {
    expectTypeOf(client.venues.create.mutate).parameter(0).toEqualTypeOf<VenueCreateInput>();
    expectTypeOf(client.venues.create.mutate).returns.resolves.toEqualTypeOf<CalendarVenue>();
    expectTypeOf<{ venue: "Hall"; city: "Lyon" }>().toExtend<VenueCreateInput>();
    expectTypeOf<{ city: "Lyon" }>().not.toExtend<VenueCreateInput>();
    expectTypeOf<CalendarVenue>().toHaveProperty("id").toEqualTypeOf<number>();
    expectTypeOf<CalendarVenue>().toHaveProperty("venue").toEqualTypeOf<string>();
    expectTypeOf<CalendarVenue>().toHaveProperty("city").toEqualTypeOf<string | undefined>();
  });

  it("get, update and delete by id or slug: the venue out", () => {
    expectTypeOf(client.venues.get.query).parameter(0).toEqualTypeOf<GetById>();
    expectTypeOf(client.venues.getBySlug.query).parameter(0).toEqualTypeOf<GetBySlug>();
    expectTypeOf(client.venues.update.mutate).parameter(0).toEqualTypeOf<VenueUpdateInput>();
    expectTypeOf(client.venues.updateBySlug.mutate).parameter(0).toEqualTypeOf<VenueUpdateBySlugInput>();
    expectTypeOf(client.venues.delete.mutate).parameter(0).toEqualTypeOf<DeleteById>();
    expectTypeOf(client.venues.deleteBySlug.mutate).parameter(0).toEqualTypeOf<DeleteBySlug>();
    expectTypeOf<{ id: 1; city: null }>().toExtend<VenueUpdateInput>();
    for (const call of [
      client.venues.get.query,
      client.venues.getBySlug.query,
      client.venues.update.mutate,
      client.venues.updateBySlug.mutate,
      client.venues.delete.mutate,
      client.venues.deleteBySlug.mutate,
    ]) {
      expectTypeOf(call).returns.resolves.toEqualTypeOf<CalendarVenue>();
    }
  });
});

describe("organizers", () => {
  it("list: a query in, a page of organizers out", () => {
    expectTypeOf(client.organizers.list.query).parameter(0).toEqualTypeOf<OrganizerListQuery>();
    expectTypeOf(client.organizers.list.query).returns.resolves.toEqualTypeOf<OrganizerList>();
    expectTypeOf<OrganizerList["organizers"]>().toEqualTypeOf<CalendarOrganizer[]>();
    expectTypeOf<OrganizerList>().toHaveProperty("total_pages").toEqualTypeOf<number>();
  });

  it("create: the name required, the organizer out", () => {
    expectTypeOf(client.organizers.create.mutate).parameter(0).toEqualTypeOf<OrganizerCreateInput>();
    expectTypeOf(client.organizers.create.mutate).returns.resolves.toEqualTypeOf<CalendarOrganizer>();
    expectTypeOf<{ organizer: "Ada"; email: "ada@example.org" }>().toExtend<OrganizerCreateInput>();
    expectTypeOf<{ email: "ada@example.org" }>().not.toExtend<OrganizerCreateInput>();
    expectTypeOf<CalendarOrganizer>().toHaveProperty("organizer").toEqualTypeOf<string>();
    expectTypeOf<CalendarOrganizer>().toHaveProperty("email").toEqualTypeOf<string | undefined>();
  });

  it("get, update and delete by id or slug: the organizer out", () => {
    expectTypeOf(client.organizers.get.query).parameter(0).toEqualTypeOf<GetById>();
    expectTypeOf(client.organizers.getBySlug.query).parameter(0).toEqualTypeOf<GetBySlug>();
    expectTypeOf(client.organizers.update.mutate).parameter(0).toEqualTypeOf<OrganizerUpdateInput>();
    expectTypeOf(client.organizers.updateBySlug.mutate).parameter(0).toEqualTypeOf<OrganizerUpdateBySlugInput>();
    expectTypeOf(client.organizers.delete.mutate).parameter(0).toEqualTypeOf<DeleteById>();
    expectTypeOf(client.organizers.deleteBySlug.mutate).parameter(0).toEqualTypeOf<DeleteBySlug>();
    for (const call of [
      client.organizers.get.query,
      client.organizers.getBySlug.query,
      client.organizers.update.mutate,
      client.organizers.updateBySlug.mutate,
      client.organizers.delete.mutate,
      client.organizers.deleteBySlug.mutate,
    ]) {
      expectTypeOf(call).returns.resolves.toEqualTypeOf<CalendarOrganizer>();
    }
  });
});

describe("categories", () => {
  it("list: a query in, a page of categories out", () => {
    expectTypeOf(client.categories.list.query).parameter(0).toEqualTypeOf<CategoryListQuery>();
    expectTypeOf(client.categories.list.query).returns.resolves.toEqualTypeOf<CategoryList>();
    expectTypeOf<CategoryList["categories"]>().toEqualTypeOf<CalendarCategory[]>();
    expectTypeOf<CategoryList>().toHaveProperty("total").toEqualTypeOf<number>();
    expectTypeOf<CategoryListQuery>().toHaveProperty("parent").toEqualTypeOf<number | undefined>();
    expectTypeOf<CategoryListQuery>().toHaveProperty("order").toEqualTypeOf<"asc" | "desc" | undefined>();
  });

  it("create, get, update and delete: the category out", () => {
    expectTypeOf(client.categories.create.mutate).parameter(0).toEqualTypeOf<CategoryCreateInput>();
    expectTypeOf(client.categories.get.query).parameter(0).toEqualTypeOf<ById>();
    expectTypeOf(client.categories.update.mutate).parameter(0).toEqualTypeOf<CategoryUpdateInput>();
    expectTypeOf(client.categories.delete.mutate).parameter(0).toEqualTypeOf<ById>();
    expectTypeOf<{ name: "Jazz"; parent: 2 }>().toExtend<CategoryCreateInput>();
    expectTypeOf<{ parent: 2 }>().not.toExtend<CategoryCreateInput>();
    expectTypeOf<{ id: 1; name: "Blues" }>().toExtend<CategoryUpdateInput>();
    expectTypeOf<CalendarCategory>().toHaveProperty("taxonomy").toEqualTypeOf<"tribe_events_cat">();
    expectTypeOf<CalendarCategory>().toHaveProperty("parent").toEqualTypeOf<number>();
    for (const call of [
      client.categories.create.mutate,
      client.categories.get.query,
      client.categories.update.mutate,
      client.categories.delete.mutate,
    ]) {
      expectTypeOf(call).returns.resolves.toEqualTypeOf<CalendarCategory>();
    }
  });
});

describe("tags", () => {
  it("list: a query in, a page of tags out", () => {
    expectTypeOf(client.tags.list.query).parameter(0).toEqualTypeOf<TagListQuery>();
    expectTypeOf(client.tags.list.query).returns.resolves.toEqualTypeOf<TagList>();
    expectTypeOf<TagList["tags"]>().toEqualTypeOf<CalendarTag[]>();
    expectTypeOf<TagListQuery>().not.toHaveProperty("parent");
  });

  it("create, get, update and delete: the tag out", () => {
    expectTypeOf(client.tags.create.mutate).parameter(0).toEqualTypeOf<TagCreateInput>();
    expectTypeOf(client.tags.get.query).parameter(0).toEqualTypeOf<ById>();
    expectTypeOf(client.tags.update.mutate).parameter(0).toEqualTypeOf<TagUpdateInput>();
    expectTypeOf(client.tags.delete.mutate).parameter(0).toEqualTypeOf<ById>();
    expectTypeOf<{ name: "Free" }>().toExtend<TagCreateInput>();
    expectTypeOf<TagCreateInput>().not.toHaveProperty("parent");
    expectTypeOf<CalendarTag>().toHaveProperty("taxonomy").toEqualTypeOf<"post_tag">();
    expectTypeOf<CalendarTag>().not.toHaveProperty("parent");
    for (const call of [
      client.tags.create.mutate,
      client.tags.get.query,
      client.tags.update.mutate,
      client.tags.delete.mutate,
    ]) {
      expectTypeOf(call).returns.resolves.toEqualTypeOf<CalendarTag>();
    }
  });
});

describe("the router", () => {
  it("offers the five resources, the change feed, the import, the webhooks and nothing of the REST aliases", () => {
    expectTypeOf<Extract<keyof typeof client, string>>().toEqualTypeOf<
      "events" | "venues" | "organizers" | "categories" | "tags" | "changes" | "import" | "webhooks"
    >();
  });

  it("manages webhooks: the secret comes with create and rotate-secret only", () => {
    expectTypeOf(client.webhooks.create.mutate).toBeCallableWith({
      url: "https://example.com/hooks",
      types: ["event"],
    });
    expectTypeOf(client.webhooks.create.mutate).returns.resolves.toEqualTypeOf<WebhookWithSecret>();
    expectTypeOf(client.webhooks.rotateSecret.mutate).returns.resolves.toHaveProperty("secret");
    expectTypeOf(client.webhooks.get.query).returns.resolves.toEqualTypeOf<CalendarWebhook>();
    expectTypeOf<CalendarWebhook>().not.toHaveProperty("secret");
    expectTypeOf(client.webhooks.deliveries.query).returns.resolves.toEqualTypeOf<WebhookAttempts>();
  });

  it("imports an iCalendar file's text and answers what the import did", () => {
    expectTypeOf(client.import.calendar.mutate).toBeCallableWith({ calendar: "BEGIN:VCALENDAR…", dry_run: true });
    expectTypeOf(client.import.calendar.mutate).returns.resolves.toEqualTypeOf<{
      created: number[];
      updated: number[];
      unchanged: number;
      skipped: Array<{ uid: string; reason: string }>;
      series: number;
    }>();
  });
});

describe("write preconditions", () => {
  it("ifMatch takes an ETag, ifUnmodifiedSince a Date; both give the options of a write", () => {
    expectTypeOf(ifMatch).parameters.toEqualTypeOf<[etag: string]>();
    expectTypeOf(ifUnmodifiedSince).parameters.toEqualTypeOf<[date: Date]>();
    expectTypeOf(ifMatch).returns.toEqualTypeOf<PreconditionOptions>();
    expectTypeOf<PreconditionOptions>().toEqualTypeOf<{ context: WritePrecondition }>();
    expectTypeOf<WritePrecondition>().toEqualTypeOf<{ ifMatch?: string; ifUnmodifiedSince?: Date }>();
    expectTypeOf(client.venues.update.mutate).toBeCallableWith({ id: 1 }, ifMatch('W/"abc"'));
    expectTypeOf(client.events.deleteBySlug.mutate).toBeCallableWith({ slug: "jazz" }, ifUnmodifiedSince(new Date()));
    // @ts-expect-error an ETag is a string
    ifMatch(42);
    // @ts-expect-error If-Unmodified-Since is a Date
    ifUnmodifiedSince("yesterday");
  });
});

describe("errors", () => {
  it("CalendarClientError.code is the union of the calendar's codes, which a switch can exhaust", () => {
    expectTypeOf<CalendarClientError["code"]>().toEqualTypeOf<CalendarErrorCode>();
    expectTypeOf<"rest-event-not-found">().toExtend<CalendarErrorCode>();
    expectTypeOf<"rest_invalid_param">().toExtend<CalendarErrorCode>();
    expectTypeOf<"request_failed">().toExtend<CalendarErrorCode>();
    expectTypeOf<"rest-thing-not-found">().not.toExtend<CalendarErrorCode>();
    expectTypeOf<string>().not.toExtend<CalendarErrorCode>();
  });
});

describe("deprecated names", () => {
  it("keeps the names before CalendarEvent & co. as aliases of the same types", () => {
    expectTypeOf<Event>().toEqualTypeOf<CalendarEvent>();
    expectTypeOf<EventDetail>().toEqualTypeOf<CalendarEventDetail>();
    expectTypeOf<Venue>().toEqualTypeOf<CalendarVenue>();
    expectTypeOf<Organizer>().toEqualTypeOf<CalendarOrganizer>();
    expectTypeOf<Category>().toEqualTypeOf<CalendarCategory>();
    expectTypeOf<Tag>().toEqualTypeOf<CalendarTag>();
    expectTypeOf<Change>().toEqualTypeOf<CalendarChange>();
    expectTypeOf<Webhook>().toEqualTypeOf<CalendarWebhook>();
  });
});
