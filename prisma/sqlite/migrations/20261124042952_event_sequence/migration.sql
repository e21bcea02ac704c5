-- AlterTable: SQLite adds a NOT NULL column with a constant default in place (no table copy).
ALTER TABLE "Event" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;
