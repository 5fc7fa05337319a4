-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN "agentIdx" INTEGER;
ALTER TABLE "ModelTurn" ADD COLUMN "costNote" TEXT;
ALTER TABLE "ModelTurn" ADD COLUMN "costUsd" REAL;
ALTER TABLE "ModelTurn" ADD COLUMN "model" TEXT;
ALTER TABLE "ModelTurn" ADD COLUMN "parentSpanId" TEXT;
ALTER TABLE "ModelTurn" ADD COLUMN "providerId" TEXT;
ALTER TABLE "ModelTurn" ADD COLUMN "spanId" TEXT;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN "agentIdx" INTEGER;
ALTER TABLE "ToolCall" ADD COLUMN "parentSpanId" TEXT;
ALTER TABLE "ToolCall" ADD COLUMN "spanId" TEXT;

-- AlterTable
ALTER TABLE "GuardEvent" ADD COLUMN "agentIdx" INTEGER;
ALTER TABLE "GuardEvent" ADD COLUMN "parentSpanId" TEXT;
ALTER TABLE "GuardEvent" ADD COLUMN "spanId" TEXT;

-- AlterTable
ALTER TABLE "CompactionEvent" ADD COLUMN "agentIdx" INTEGER;
ALTER TABLE "CompactionEvent" ADD COLUMN "parentSpanId" TEXT;
ALTER TABLE "CompactionEvent" ADD COLUMN "spanId" TEXT;

-- CreateTable
CREATE TABLE "RunAgent" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "parentIdx" INTEGER,
    "entered" TEXT NOT NULL,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "RunAgent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (a plain ADD COLUMN: no need to rebuild Run)
ALTER TABLE "Run" ADD COLUMN "agentCount" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Run" ADD COLUMN "agentTreeHash" TEXT;

-- CreateIndex
CREATE INDEX "RunAgent_name_runId_idx" ON "RunAgent"("name", "runId");
