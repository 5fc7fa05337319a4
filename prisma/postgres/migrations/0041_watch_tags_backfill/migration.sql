-- AlterTable
ALTER TABLE "RunWatch" ADD COLUMN     "claimedBy" TEXT;

-- CreateTable
CREATE TABLE "RunTag" (
    "runId" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "RunTag_pkey" PRIMARY KEY ("runId","tag")
);

-- CreateTable
CREATE TABLE "EvaluatorBackfill" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "evaluatorId" TEXT NOT NULL,
    "evaluatorName" TEXT NOT NULL,
    "evaluatorVersion" INTEGER NOT NULL,
    "from" TIMESTAMP(3) NOT NULL,
    "to" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "total" INTEGER,
    "scanned" INTEGER NOT NULL DEFAULT 0,
    "scored" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "queued" INTEGER NOT NULL DEFAULT 0,
    "cursorAt" TIMESTAMP(3),
    "cursorId" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "claimedBy" TEXT,
    "error" TEXT,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvaluatorBackfill_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RunTag_tenant_tag_runId_idx" ON "RunTag"("tenant", "tag", "runId");

-- CreateIndex
CREATE INDEX "EvaluatorBackfill_tenant_createdAt_idx" ON "EvaluatorBackfill"("tenant", "createdAt");

-- CreateIndex
CREATE INDEX "EvaluatorBackfill_status_idx" ON "EvaluatorBackfill"("status");

-- AddForeignKey
ALTER TABLE "RunTag" ADD CONSTRAINT "RunTag_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
