-- DropIndex
DROP INDEX "Event_language_status_startUtc_idx";

-- AlterTable
ALTER TABLE "Category" ADD COLUMN     "eventCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Tag" ADD COLUMN     "eventCount" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Event_language_status_hideFromListings_startUtc_postDateUtc_idx" ON "Event"("language", "status", "hideFromListings", "startUtc", "postDateUtc", "id", "endUtc");

-- Backfill the term counts: published events of the term's language.
UPDATE "Category" SET "eventCount" = (
    SELECT COUNT(*) FROM "EventCategory" ec JOIN "Event" e ON e."id" = ec."eventId"
    WHERE ec."categoryId" = "Category"."id" AND e."status" = 'publish' AND e."language" = "Category"."language"
);
UPDATE "Tag" SET "eventCount" = (
    SELECT COUNT(*) FROM "EventTag" et JOIN "Event" e ON e."id" = et."eventId"
    WHERE et."tagId" = "Tag"."id" AND e."status" = 'publish' AND e."language" = "Tag"."language"
);
