-- DropIndex
DROP INDEX "Run_datasetName_startedAt_id_idx";

-- DropIndex
DROP INDEX "Run_setting_startedAt_id_idx";

-- DropIndex
DROP INDEX "Run_category_startedAt_id_idx";

-- DropIndex
DROP INDEX "Run_terminationReason_startedAt_id_idx";

-- DropIndex
DROP INDEX "Run_caseId_startedAt_id_idx";

-- DropIndex
DROP INDEX "Run_source_startedAt_id_idx";

-- CreateIndex
CREATE INDEX "Run_tenant_datasetName_startedAt_id_idx" ON "Run"("tenant", "datasetName", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_tenant_setting_startedAt_id_idx" ON "Run"("tenant", "setting", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_tenant_category_startedAt_id_idx" ON "Run"("tenant", "category", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_tenant_terminationReason_startedAt_id_idx" ON "Run"("tenant", "terminationReason", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_tenant_caseId_startedAt_id_idx" ON "Run"("tenant", "caseId", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_tenant_source_startedAt_id_idx" ON "Run"("tenant", "source", "startedAt", "id");
