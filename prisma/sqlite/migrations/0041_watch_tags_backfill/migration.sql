-- AlterTable
ALTER TABLE "RunWatch" ADD COLUMN "claimedBy" TEXT;

-- CreateTable
CREATE TABLE "RunTag" (
    "runId" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    PRIMARY KEY ("runId", "tag"),
    CONSTRAINT "RunTag_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EvaluatorBackfill" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant" TEXT NOT NULL,
    "evaluatorId" TEXT NOT NULL,
    "evaluatorName" TEXT NOT NULL,
    "evaluatorVersion" INTEGER NOT NULL,
    "from" DATETIME NOT NULL,
    "to" DATETIME NOT NULL,
    "status" TEXT NOT NULL,
    "total" INTEGER,
    "scanned" INTEGER NOT NULL DEFAULT 0,
    "scored" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "queued" INTEGER NOT NULL DEFAULT 0,
    "cursorAt" DATETIME,
    "cursorId" TEXT,
    "claimedUntil" DATETIME,
    "claimedBy" TEXT,
    "error" TEXT,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "RunTag_tenant_tag_runId_idx" ON "RunTag"("tenant", "tag", "runId");

-- CreateIndex
CREATE INDEX "EvaluatorBackfill_tenant_createdAt_idx" ON "EvaluatorBackfill"("tenant", "createdAt");

-- CreateIndex
CREATE INDEX "EvaluatorBackfill_status_idx" ON "EvaluatorBackfill"("status");
