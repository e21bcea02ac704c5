-- CreateTable
CREATE TABLE "ChangeVersion" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT DEFAULT 1,
    "version" INTEGER NOT NULL DEFAULT 0
);

-- The one row every write advances.
INSERT INTO "ChangeVersion" ("id", "version") VALUES (1, 0);
