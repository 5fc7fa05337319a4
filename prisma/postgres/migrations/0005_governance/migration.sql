-- DropIndex
DROP INDEX "EvidenceEvent_hash_key";

-- AlterTable
ALTER TABLE "GovernedRun" ADD COLUMN     "lastError" TEXT;

-- AlterTable
ALTER TABLE "ApprovalRequest" ADD COLUMN     "resumeError" TEXT;

-- AlterTable
ALTER TABLE "EvidenceEvent" DROP CONSTRAINT "EvidenceEvent_pkey",
ADD COLUMN     "chain" TEXT NOT NULL DEFAULT 'legacy',
ADD COLUMN     "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "signature" TEXT NOT NULL DEFAULT '',
ADD CONSTRAINT "EvidenceEvent_pkey" PRIMARY KEY ("chain", "seq");

-- Events from before signing are kept as the unsigned chain `legacy` (audit verify reports them).
ALTER TABLE "EvidenceEvent" ALTER COLUMN "chain" DROP DEFAULT, ALTER COLUMN "signature" DROP DEFAULT;

-- CreateTable
CREATE TABLE "EvidenceChain" (
    "chain" TEXT NOT NULL,
    "anchorSeq" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvidenceChain_pkey" PRIMARY KEY ("chain")
);

-- CreateTable
CREATE TABLE "EvidenceAnchor" (
    "id" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,

    CONSTRAINT "EvidenceAnchor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RestockLedgerRecord" (
    "operationKey" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "record" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RestockLedgerRecord_pkey" PRIMARY KEY ("operationKey")
);

-- CreateIndex
CREATE UNIQUE INDEX "EvidenceChain_anchorSeq_key" ON "EvidenceChain"("anchorSeq");

-- CreateIndex
CREATE INDEX "RestockLedgerRecord_runId_idx" ON "RestockLedgerRecord"("runId");

-- CreateIndex
CREATE INDEX "EvidenceEvent_createdAt_idx" ON "EvidenceEvent"("createdAt");
