/*
  Warnings:

  - A unique constraint covering the columns `[language,icalUid,icalRecurrenceId]` on the table `Event` will be added. If there are existing duplicate values, this will fail.

*/
-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "icalModifiedUtc" TIMESTAMP(3),
ADD COLUMN     "icalRecurrenceId" TEXT,
ADD COLUMN     "icalSequence" INTEGER,
ADD COLUMN     "icalUid" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Event_language_icalUid_icalRecurrenceId_key" ON "Event"("language", "icalUid", "icalRecurrenceId");
