-- AlterTable
ALTER TABLE "GovernedRun" ADD COLUMN "lastError" TEXT;

-- AlterTable
ALTER TABLE "ApprovalRequest" ADD COLUMN "resumeError" TEXT;

-- CreateTable
CREATE TABLE "EvidenceChain" (
    "chain" TEXT NOT NULL PRIMARY KEY,
    "anchorSeq" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "EvidenceAnchor" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "RestockLedgerRecord" (
    "operationKey" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "sku" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "record" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EvidenceEvent" (
    "chain" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "runId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("chain", "seq")
);
-- Events from before signing are kept as the unsigned chain `legacy` (audit verify reports them).
INSERT INTO "new_EvidenceEvent" ("chain", "signature", "body", "hash", "prevHash", "runId", "seq") SELECT 'legacy', '', "body", "hash", "prevHash", "runId", "seq" FROM "EvidenceEvent";
DROP TABLE "EvidenceEvent";
ALTER TABLE "new_EvidenceEvent" RENAME TO "EvidenceEvent";
CREATE INDEX "EvidenceEvent_runId_seq_idx" ON "EvidenceEvent"("runId", "seq");
CREATE INDEX "EvidenceEvent_createdAt_idx" ON "EvidenceEvent"("createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "EvidenceChain_anchorSeq_key" ON "EvidenceChain"("anchorSeq");

-- CreateIndex
CREATE INDEX "RestockLedgerRecord_runId_idx" ON "RestockLedgerRecord"("runId");
