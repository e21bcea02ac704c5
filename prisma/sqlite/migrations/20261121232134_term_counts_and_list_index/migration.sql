-- DropIndex
DROP INDEX "Event_language_status_startUtc_idx";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Category" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "parentId" INTEGER,
    "language" TEXT NOT NULL DEFAULT 'en',
    "translationGroup" TEXT,
    "eventCount" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "Category_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Category" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Category" ("description", "id", "language", "name", "nameKey", "parentId", "slug", "translationGroup") SELECT "description", "id", "language", "name", "nameKey", "parentId", "slug", "translationGroup" FROM "Category";
DROP TABLE "Category";
ALTER TABLE "new_Category" RENAME TO "Category";
CREATE INDEX "Category_language_nameKey_idx" ON "Category"("language", "nameKey");
CREATE INDEX "Category_parentId_idx" ON "Category"("parentId");
CREATE UNIQUE INDEX "Category_language_slug_key" ON "Category"("language", "slug");
CREATE UNIQUE INDEX "Category_translationGroup_language_key" ON "Category"("translationGroup", "language");
CREATE TABLE "new_Tag" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT 'en',
    "translationGroup" TEXT,
    "eventCount" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_Tag" ("description", "id", "language", "name", "nameKey", "slug", "translationGroup") SELECT "description", "id", "language", "name", "nameKey", "slug", "translationGroup" FROM "Tag";
DROP TABLE "Tag";
ALTER TABLE "new_Tag" RENAME TO "Tag";
CREATE INDEX "Tag_language_nameKey_idx" ON "Tag"("language", "nameKey");
CREATE UNIQUE INDEX "Tag_language_slug_key" ON "Tag"("language", "slug");
CREATE UNIQUE INDEX "Tag_translationGroup_language_key" ON "Tag"("translationGroup", "language");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Event_language_status_hideFromListings_startUtc_postDateUtc_id_endUtc_idx" ON "Event"("language", "status", "hideFromListings", "startUtc", "postDateUtc", "id", "endUtc");

-- Backfill the term counts: published events of the term's language.
UPDATE "Category" SET "eventCount" = (
    SELECT COUNT(*) FROM "EventCategory" ec JOIN "Event" e ON e."id" = ec."eventId"
    WHERE ec."categoryId" = "Category"."id" AND e."status" = 'publish' AND e."language" = "Category"."language"
);
UPDATE "Tag" SET "eventCount" = (
    SELECT COUNT(*) FROM "EventTag" et JOIN "Event" e ON e."id" = et."eventId"
    WHERE et."tagId" = "Tag"."id" AND e."status" = 'publish' AND e."language" = "Tag"."language"
);
