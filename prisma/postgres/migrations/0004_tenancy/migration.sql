-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "governed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "tenant" TEXT NOT NULL DEFAULT 'kittiwake';

-- AlterTable
ALTER TABLE "SuiteRun" ADD COLUMN     "createdBy" TEXT,
ADD COLUMN     "tenant" TEXT NOT NULL DEFAULT 'kittiwake';

-- CreateIndex
CREATE INDEX "Run_tenant_startedAt_id_idx" ON "Run"("tenant", "startedAt", "id");

-- CreateIndex
CREATE INDEX "SuiteRun_tenant_createdAt_id_idx" ON "SuiteRun"("tenant", "createdAt", "id");

-- Runs that already ran under the policy are governed (the label "ungoverned" is for the others).
UPDATE "Run" SET "governed" = true WHERE "id" IN (SELECT "runId" FROM "GovernedRun");
