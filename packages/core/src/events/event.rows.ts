import type { Prisma } from "../generated/sqlite/client.ts";

/** What every event read loads with the event itself: the image and the ids of its links, in their order. */
export const EVENT_ROW_INCLUDE = {
  image: { select: { id: true, url: true } },
  venues: { select: { venueId: true }, orderBy: { position: "asc" } },
  organizers: { select: { organizerId: true }, orderBy: { position: "asc" } },
  categories: { select: { categoryId: true } },
  tags: { select: { tagId: true } },
} satisfies Prisma.EventInclude;

export type EventRow = Prisma.EventGetPayload<{ include: typeof EVENT_ROW_INCLUDE }>;
