-- AlterTable
ALTER TABLE "EventSeries" ADD COLUMN "horizonResumeLocal" TEXT;
ALTER TABLE "EventSeries" ADD COLUMN "horizonRuleKey" TEXT;
ALTER TABLE "EventSeries" ADD COLUMN "horizonStopped" TEXT;
