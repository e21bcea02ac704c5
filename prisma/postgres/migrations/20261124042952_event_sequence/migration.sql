-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "sequence" INTEGER NOT NULL DEFAULT 0;
