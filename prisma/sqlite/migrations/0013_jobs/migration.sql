-- AlterTable
ALTER TABLE "SuiteRun" ADD COLUMN "jobSpec" TEXT;
ALTER TABLE "SuiteRun" ADD COLUMN "startedAt" DATETIME;

-- CreateTable
CREATE TABLE "ProviderCall" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "provider" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "leaseUntil" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "WorkerHeartbeat" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workerIds" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "lastSeen" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "ProviderCall_provider_startedAt_idx" ON "ProviderCall"("provider", "startedAt");

-- Before the unique key: a database written before it may hold a suite's case stored twice (the
-- in-server queue could store a case again after a restart). The earliest run keeps its place in the
-- suite; later copies are kept as stand-alone runs (suiteRunId cleared), so nothing is deleted.
UPDATE "Run" SET "suiteRunId" = NULL
WHERE "id" IN (
    SELECT "id" FROM (
        SELECT "id", ROW_NUMBER() OVER (PARTITION BY "suiteRunId", "setting", "caseId" ORDER BY "startedAt", "id") AS "n"
        FROM "Run"
        WHERE "suiteRunId" IS NOT NULL AND "caseId" IS NOT NULL
    ) AS "ranked"
    WHERE "n" > 1
);

-- CreateIndex
CREATE UNIQUE INDEX "Run_suiteRunId_setting_caseId_key" ON "Run"("suiteRunId", "setting", "caseId");
