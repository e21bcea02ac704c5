-- AlterTable
ALTER TABLE "EventSeries" ADD COLUMN     "horizonResumeLocal" TEXT,
ADD COLUMN     "horizonRuleKey" TEXT,
ADD COLUMN     "horizonStopped" TEXT;
