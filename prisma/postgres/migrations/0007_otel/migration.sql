-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'harness';

-- CreateIndex
CREATE INDEX "Run_source_startedAt_id_idx" ON "Run"("source", "startedAt", "id");
