-- DropIndex
DROP INDEX "Event_language_status_hideFromListings_startUtc_postDateUtc_idx";

-- CreateIndex
CREATE INDEX "Event_language_status_hideFromListings_startUtc_postDateUtc_idx" ON "Event"("language", "status", "hideFromListings", "startUtc", "postDateUtc", "id", "endUtc", "password");
