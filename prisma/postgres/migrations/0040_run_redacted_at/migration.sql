-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "redactedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Run_tenant_createdAt_idx" ON "Run"("tenant", "createdAt");
