-- CreateTable
CREATE TABLE "Change" (
    "version" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "recordId" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL,
    "authorId" INTEGER,
    "modifiedUtc" DATETIME NOT NULL,

    PRIMARY KEY ("version", "type", "recordId")
);

-- CreateIndex
CREATE INDEX "Change_type_recordId_version_idx" ON "Change"("type", "recordId", "version");

-- CreateIndex
CREATE INDEX "Change_modifiedUtc_idx" ON "Change"("modifiedUtc");
