-- AlterTable
ALTER TABLE "GovernedRun" ADD COLUMN "owner" TEXT;
ALTER TABLE "GovernedRun" ADD COLUMN "resumeStartedAt" DATETIME;
ALTER TABLE "GovernedRun" ADD COLUMN "takenOverAt" DATETIME;

-- AlterTable
ALTER TABLE "RestockLedgerRecord" ADD COLUMN "seq" INTEGER;
ALTER TABLE "RestockLedgerRecord" ADD COLUMN "tenant" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "RestockLedgerRecord_tenant_seq_key" ON "RestockLedgerRecord"("tenant", "seq");

-- Backfill: the records kept so far are numbered in their tenant in the order they were written, so a
-- new record's name continues after them (their own names are history and stay as written).
UPDATE "RestockLedgerRecord" SET "tenant" = x."tenant", "seq" = x."n"
  FROM (SELECT l."operationKey", g."tenant", row_number() OVER (PARTITION BY g."tenant" ORDER BY l."createdAt", l."operationKey") AS "n"
          FROM "RestockLedgerRecord" l JOIN "GovernedRun" g ON g."runId" = l."runId") AS x
 WHERE "RestockLedgerRecord"."operationKey" = x."operationKey";
