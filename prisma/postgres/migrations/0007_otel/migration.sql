-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'harness';

-- CreateIndex
CREATE INDEX "Run_tenant_source_startedAt_id_idx" ON "Run"("tenant", "source", "startedAt", "id");
