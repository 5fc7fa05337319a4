-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "harnessRunId" TEXT NOT NULL,
    "suiteRunId" TEXT,
    "createdBy" TEXT,
    "tenant" TEXT NOT NULL DEFAULT 'kittiwake',
    "governed" BOOLEAN NOT NULL DEFAULT false,
    "caseId" TEXT,
    "category" TEXT,
    "query" TEXT NOT NULL,
    "datasetName" TEXT NOT NULL,
    "datasetHash" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "setting" TEXT NOT NULL,
    "weaknesses" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "terminationReason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'finished',
    "checkpointHash" TEXT,
    "finalAnswer" TEXT NOT NULL,
    "steps" INTEGER NOT NULL,
    "trajectoryLength" INTEGER NOT NULL,
    "toolCallCount" INTEGER NOT NULL,
    "toolErrorCount" INTEGER NOT NULL,
    "blockedCount" INTEGER NOT NULL,
    "guardCount" INTEGER NOT NULL,
    "compactionCount" INTEGER NOT NULL,
    "modelCallCount" INTEGER NOT NULL,
    "inputTokens" BIGINT NOT NULL,
    "outputTokens" BIGINT NOT NULL,
    "totalTokens" BIGINT NOT NULL,
    "costUsd" REAL NOT NULL,
    "costNote" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "durationMs" REAL NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "systemPromptHash" TEXT NOT NULL,
    "toolSpecsHash" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'harness',
    CONSTRAINT "Run_suiteRunId_fkey" FOREIGN KEY ("suiteRunId") REFERENCES "SuiteRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("blockedCount", "caseId", "category", "checkpointHash", "compactionCount", "config", "costNote", "costUsd", "createdAt", "createdBy", "datasetHash", "datasetName", "durationMs", "finalAnswer", "governed", "guardCount", "harnessRunId", "id", "inputTokens", "mode", "modelCallCount", "modelId", "outputTokens", "query", "setting", "startedAt", "status", "steps", "suiteRunId", "systemPromptHash", "tenant", "terminationReason", "toolCallCount", "toolErrorCount", "toolSpecsHash", "totalTokens", "trajectoryLength", "transport", "weaknesses") SELECT "blockedCount", "caseId", "category", "checkpointHash", "compactionCount", "config", "costNote", "costUsd", "createdAt", "createdBy", "datasetHash", "datasetName", "durationMs", "finalAnswer", "governed", "guardCount", "harnessRunId", "id", "inputTokens", "mode", "modelCallCount", "modelId", "outputTokens", "query", "setting", "startedAt", "status", "steps", "suiteRunId", "systemPromptHash", "tenant", "terminationReason", "toolCallCount", "toolErrorCount", "toolSpecsHash", "totalTokens", "trajectoryLength", "transport", "weaknesses" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_startedAt_id_idx" ON "Run"("startedAt", "id");
CREATE INDEX "Run_durationMs_id_idx" ON "Run"("durationMs", "id");
CREATE INDEX "Run_totalTokens_id_idx" ON "Run"("totalTokens", "id");
CREATE INDEX "Run_costUsd_id_idx" ON "Run"("costUsd", "id");
CREATE INDEX "Run_steps_id_idx" ON "Run"("steps", "id");
CREATE INDEX "Run_datasetName_startedAt_id_idx" ON "Run"("datasetName", "startedAt", "id");
CREATE INDEX "Run_setting_startedAt_id_idx" ON "Run"("setting", "startedAt", "id");
CREATE INDEX "Run_category_startedAt_id_idx" ON "Run"("category", "startedAt", "id");
CREATE INDEX "Run_terminationReason_startedAt_id_idx" ON "Run"("terminationReason", "startedAt", "id");
CREATE INDEX "Run_caseId_startedAt_id_idx" ON "Run"("caseId", "startedAt", "id");
CREATE INDEX "Run_suiteRunId_idx" ON "Run"("suiteRunId");
CREATE INDEX "Run_tenant_startedAt_id_idx" ON "Run"("tenant", "startedAt", "id");
CREATE INDEX "Run_source_startedAt_id_idx" ON "Run"("source", "startedAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
