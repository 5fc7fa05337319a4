-- AlterTable
ALTER TABLE "SuiteRun" ADD COLUMN     "jobSpec" TEXT,
ADD COLUMN     "startedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "ProviderCall" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "leaseUntil" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ProviderCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkerHeartbeat" (
    "id" TEXT NOT NULL,
    "workerIds" TEXT NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "lastSeen" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkerHeartbeat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProviderCall_provider_startedAt_idx" ON "ProviderCall"("provider", "startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Run_suiteRunId_setting_caseId_key" ON "Run"("suiteRunId", "setting", "caseId");
