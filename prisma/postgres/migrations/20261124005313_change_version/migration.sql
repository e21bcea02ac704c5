-- CreateTable
CREATE TABLE "ChangeVersion" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ChangeVersion_pkey" PRIMARY KEY ("id")
);

-- The one row every write advances.
INSERT INTO "ChangeVersion" ("id", "version") VALUES (1, 0);
