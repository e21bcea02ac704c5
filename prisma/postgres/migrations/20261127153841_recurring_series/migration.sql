-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "originalStartLocal" TEXT,
ADD COLUMN     "originalStartUtc" TIMESTAMP(3),
ADD COLUMN     "overrides" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "seriesId" INTEGER;

-- CreateTable
CREATE TABLE "EventSeries" (
    "id" SERIAL NOT NULL,
    "recurrence" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "allDay" BOOLEAN NOT NULL DEFAULT false,
    "startLocal" TEXT NOT NULL,
    "startUtc" TIMESTAMP(3) NOT NULL,
    "durationSeconds" INTEGER NOT NULL,
    "generatedUntilUtc" TIMESTAMP(3),
    "uid" TEXT NOT NULL,
    "language" TEXT NOT NULL DEFAULT 'en',
    "translationGroup" TEXT,
    "firstEventId" INTEGER,

    CONSTRAINT "EventSeries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeriesLease" (
    "id" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SeriesLease_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CalendarSetting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "CalendarSetting_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "EventSeries_generatedUntilUtc_idx" ON "EventSeries"("generatedUntilUtc");

-- CreateIndex
CREATE INDEX "EventSeries_translationGroup_idx" ON "EventSeries"("translationGroup");

-- CreateIndex
CREATE UNIQUE INDEX "EventSeries_language_uid_key" ON "EventSeries"("language", "uid");

-- CreateIndex
CREATE INDEX "Event_seriesId_originalStartUtc_idx" ON "Event"("seriesId", "originalStartUtc");

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_seriesId_fkey" FOREIGN KEY ("seriesId") REFERENCES "EventSeries"("id") ON DELETE SET NULL ON UPDATE CASCADE;
