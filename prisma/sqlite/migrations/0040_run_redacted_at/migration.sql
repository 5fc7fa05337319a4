-- AlterTable
ALTER TABLE "Run" ADD COLUMN "redactedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Run_tenant_createdAt_idx" ON "Run"("tenant", "createdAt");
