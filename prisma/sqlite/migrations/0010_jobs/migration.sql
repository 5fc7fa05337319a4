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

-- CreateIndex
CREATE UNIQUE INDEX "Run_suiteRunId_setting_caseId_key" ON "Run"("suiteRunId", "setting", "caseId");
