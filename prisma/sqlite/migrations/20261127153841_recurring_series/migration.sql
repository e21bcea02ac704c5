-- CreateTable
CREATE TABLE "EventSeries" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "recurrence" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "startLocal" TEXT NOT NULL,
    "startUtc" DATETIME NOT NULL,
    "durationSeconds" INTEGER NOT NULL,
    "generatedUntilUtc" DATETIME,
    "uid" TEXT NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'en',
    "translationGroup" TEXT,
    "firstEventId" INTEGER
);

-- CreateTable
CREATE TABLE "SeriesLease" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "CalendarSetting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "excerpt" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'publish',
    "authorId" INTEGER,
    "language" TEXT NOT NULL DEFAULT 'en',
    "translationGroup" TEXT,
    "postDate" TEXT NOT NULL,
    "postDateUtc" DATETIME NOT NULL,
    "modified" TEXT NOT NULL,
    "modifiedUtc" DATETIME NOT NULL,
    "startLocal" TEXT NOT NULL,
    "endLocal" TEXT NOT NULL,
    "startUtc" DATETIME NOT NULL,
    "endUtc" DATETIME NOT NULL,
    "timezone" TEXT NOT NULL,
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "password" TEXT NOT NULL DEFAULT '',
    "hideFromListings" BOOLEAN NOT NULL DEFAULT false,
    "sticky" BOOLEAN NOT NULL DEFAULT false,
    "featured" BOOLEAN NOT NULL DEFAULT false,
    "showMap" BOOLEAN NOT NULL DEFAULT true,
    "showMapLink" BOOLEAN NOT NULL DEFAULT true,
    "website" TEXT NOT NULL DEFAULT '',
    "cost" TEXT NOT NULL DEFAULT '',
    "imageId" INTEGER,
    "parentId" INTEGER,
    "ticketed" BOOLEAN NOT NULL DEFAULT false,
    "searchText" TEXT NOT NULL DEFAULT '',
    "icalUid" TEXT,
    "icalRecurrenceId" TEXT,
    "icalSequence" INTEGER,
    "icalModifiedUtc" DATETIME,
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "seriesId" INTEGER,
    "originalStartLocal" TEXT,
    "originalStartUtc" DATETIME,
    "overrides" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "Event_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Event_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Event_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Event" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Event_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "EventSeries" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Event" ("allDay", "authorId", "cost", "description", "endLocal", "endUtc", "excerpt", "featured", "hideFromListings", "icalModifiedUtc", "icalRecurrenceId", "icalSequence", "icalUid", "id", "imageId", "language", "modified", "modifiedUtc", "parentId", "password", "postDate", "postDateUtc", "searchText", "sequence", "showMap", "showMapLink", "slug", "startLocal", "startUtc", "status", "sticky", "ticketed", "timezone", "title", "translationGroup", "website") SELECT "allDay", "authorId", "cost", "description", "endLocal", "endUtc", "excerpt", "featured", "hideFromListings", "icalModifiedUtc", "icalRecurrenceId", "icalSequence", "icalUid", "id", "imageId", "language", "modified", "modifiedUtc", "parentId", "password", "postDate", "postDateUtc", "searchText", "sequence", "showMap", "showMapLink", "slug", "startLocal", "startUtc", "status", "sticky", "ticketed", "timezone", "title", "translationGroup", "website" FROM "Event";
DROP TABLE "Event";
ALTER TABLE "new_Event" RENAME TO "Event";
CREATE INDEX "Event_language_status_hideFromListings_startUtc_postDateUtc_id_endUtc_password_idx" ON "Event"("language", "status", "hideFromListings", "startUtc", "postDateUtc", "id", "endUtc", "password");
CREATE INDEX "Event_language_startUtc_postDateUtc_id_idx" ON "Event"("language", "startUtc", "postDateUtc", "id");
CREATE INDEX "Event_parentId_idx" ON "Event"("parentId");
CREATE INDEX "Event_authorId_idx" ON "Event"("authorId");
CREATE INDEX "Event_seriesId_originalStartUtc_idx" ON "Event"("seriesId", "originalStartUtc");
CREATE UNIQUE INDEX "Event_language_slug_key" ON "Event"("language", "slug");
CREATE UNIQUE INDEX "Event_translationGroup_language_key" ON "Event"("translationGroup", "language");
CREATE UNIQUE INDEX "Event_language_icalUid_icalRecurrenceId_key" ON "Event"("language", "icalUid", "icalRecurrenceId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "EventSeries_generatedUntilUtc_idx" ON "EventSeries"("generatedUntilUtc");

-- CreateIndex
CREATE INDEX "EventSeries_translationGroup_idx" ON "EventSeries"("translationGroup");

-- CreateIndex
CREATE UNIQUE INDEX "EventSeries_language_uid_key" ON "EventSeries"("language", "uid");
