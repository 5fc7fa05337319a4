-- AlterTable
ALTER TABLE "GovernedRun" ADD COLUMN     "owner" TEXT,
ADD COLUMN     "resumeStartedAt" TIMESTAMP(3),
ADD COLUMN     "takenOverAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "RestockLedgerRecord" ADD COLUMN     "seq" INTEGER,
ADD COLUMN     "tenant" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "RestockLedgerRecord_tenant_seq_key" ON "RestockLedgerRecord"("tenant", "seq");

-- Backfill: the records kept so far are numbered in their tenant in the order they were written, so a
-- new record's name continues after them (their own names are history and stay as written).
UPDATE "RestockLedgerRecord" AS r SET "tenant" = x."tenant", "seq" = x."n"
  FROM (SELECT l."operationKey", g."tenant", row_number() OVER (PARTITION BY g."tenant" ORDER BY l."createdAt", l."operationKey") AS "n"
          FROM "RestockLedgerRecord" l JOIN "GovernedRun" g ON g."runId" = l."runId") AS x
 WHERE r."operationKey" = x."operationKey";
