-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "agentCount" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "agentTreeHash" TEXT;

-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN     "agentIdx" INTEGER,
ADD COLUMN     "costNote" TEXT,
ADD COLUMN     "costUsd" DOUBLE PRECISION,
ADD COLUMN     "model" TEXT,
ADD COLUMN     "parentSpanId" TEXT,
ADD COLUMN     "providerId" TEXT,
ADD COLUMN     "spanId" TEXT;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "agentIdx" INTEGER,
ADD COLUMN     "parentSpanId" TEXT,
ADD COLUMN     "spanId" TEXT;

-- AlterTable
ALTER TABLE "GuardEvent" ADD COLUMN     "agentIdx" INTEGER,
ADD COLUMN     "parentSpanId" TEXT,
ADD COLUMN     "spanId" TEXT;

-- AlterTable
ALTER TABLE "CompactionEvent" ADD COLUMN     "agentIdx" INTEGER,
ADD COLUMN     "parentSpanId" TEXT,
ADD COLUMN     "spanId" TEXT;

-- CreateTable
CREATE TABLE "RunAgent" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "parentIdx" INTEGER,
    "entered" TEXT NOT NULL,

    CONSTRAINT "RunAgent_pkey" PRIMARY KEY ("runId","idx")
);

-- CreateIndex
CREATE INDEX "RunAgent_name_runId_idx" ON "RunAgent"("name", "runId");

-- AddForeignKey
ALTER TABLE "RunAgent" ADD CONSTRAINT "RunAgent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
