-- CreateTable
CREATE TABLE "Blob" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "text" TEXT NOT NULL,
    "chars" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "harnessRunId" TEXT NOT NULL,
    "suiteRunId" TEXT,
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
    CONSTRAINT "Run_suiteRunId_fkey" FOREIGN KEY ("suiteRunId") REFERENCES "SuiteRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunFlag" (
    "runId" TEXT NOT NULL,
    "flag" TEXT NOT NULL,

    PRIMARY KEY ("runId", "flag"),
    CONSTRAINT "RunFlag_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunBlobRef" (
    "runId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    PRIMARY KEY ("runId", "hash"),
    CONSTRAINT "RunBlobRef_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunBlobRef_hash_fkey" FOREIGN KEY ("hash") REFERENCES "Blob" ("hash") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Transition" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "fromState" TEXT NOT NULL,
    "toState" TEXT NOT NULL,
    "reason" TEXT NOT NULL,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "Transition_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ModelTurn" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "text" TEXT,
    "toolCalls" TEXT NOT NULL,
    "stopReason" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "latencyMs" REAL NOT NULL,
    "contextTokensEstimate" INTEGER NOT NULL,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "ModelTurn_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ToolCall" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "toolUseId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "arguments" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "resultHash" TEXT NOT NULL,
    "resultPreview" TEXT NOT NULL,
    "isError" BOOLEAN NOT NULL,
    "errorCode" TEXT,
    "validationError" TEXT,
    "blockedBy" TEXT,
    "executed" BOOLEAN NOT NULL,
    "payloadChars" INTEGER NOT NULL,
    "latencyMs" REAL NOT NULL,
    "sanitized" BOOLEAN NOT NULL,
    "quarantinedLines" INTEGER NOT NULL,
    "quarantinedText" TEXT NOT NULL,
    "rewrittenBy" TEXT NOT NULL,
    "policy" TEXT,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "ToolCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ToolCall_resultHash_fkey" FOREIGN KEY ("resultHash") REFERENCES "Blob" ("hash") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GuardEvent" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "guard" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT NOT NULL,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "GuardEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CompactionEvent" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "tokensBefore" INTEGER NOT NULL,
    "tokensAfter" INTEGER NOT NULL,
    "resultsSummarised" INTEGER NOT NULL,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "CompactionEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ModelCall" (
    "runId" TEXT NOT NULL,
    "callIndex" INTEGER NOT NULL,
    "step" INTEGER,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "messageCount" INTEGER NOT NULL,
    "messageRanges" TEXT NOT NULL,

    PRIMARY KEY ("runId", "callIndex"),
    CONSTRAINT "ModelCall_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunMessage" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,

    PRIMARY KEY ("runId", "seq"),
    CONSTRAINT "RunMessage_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "RunMessage_hash_fkey" FOREIGN KEY ("hash") REFERENCES "Blob" ("hash") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SuiteRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "config" TEXT NOT NULL,
    "datasetName" TEXT NOT NULL,
    "datasetHash" TEXT NOT NULL,
    "goldenSha256" TEXT,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "SuiteSetting" (
    "suiteRunId" TEXT NOT NULL,
    "setting" TEXT NOT NULL,
    "metrics" TEXT NOT NULL,
    "byCategory" TEXT NOT NULL,
    "reportedAt" DATETIME,

    PRIMARY KEY ("suiteRunId", "setting"),
    CONSTRAINT "SuiteSetting_suiteRunId_fkey" FOREIGN KEY ("suiteRunId") REFERENCES "SuiteRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SuiteCase" (
    "suiteRunId" TEXT NOT NULL,
    "setting" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "category" TEXT,
    "runId" TEXT,
    "scores" TEXT NOT NULL,

    PRIMARY KEY ("suiteRunId", "setting", "caseId"),
    CONSTRAINT "SuiteCase_suiteRunId_fkey" FOREIGN KEY ("suiteRunId") REFERENCES "SuiteRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SuiteCase_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Run_startedAt_id_idx" ON "Run"("startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_durationMs_id_idx" ON "Run"("durationMs", "id");

-- CreateIndex
CREATE INDEX "Run_totalTokens_id_idx" ON "Run"("totalTokens", "id");

-- CreateIndex
CREATE INDEX "Run_costUsd_id_idx" ON "Run"("costUsd", "id");

-- CreateIndex
CREATE INDEX "Run_steps_id_idx" ON "Run"("steps", "id");

-- CreateIndex
CREATE INDEX "Run_datasetName_startedAt_id_idx" ON "Run"("datasetName", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_setting_startedAt_id_idx" ON "Run"("setting", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_category_startedAt_id_idx" ON "Run"("category", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_terminationReason_startedAt_id_idx" ON "Run"("terminationReason", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_caseId_startedAt_id_idx" ON "Run"("caseId", "startedAt", "id");

-- CreateIndex
CREATE INDEX "Run_suiteRunId_idx" ON "Run"("suiteRunId");

-- CreateIndex
CREATE INDEX "RunFlag_flag_runId_idx" ON "RunFlag"("flag", "runId");

-- CreateIndex
CREATE INDEX "RunBlobRef_hash_idx" ON "RunBlobRef"("hash");

-- CreateIndex
CREATE INDEX "Transition_runId_step_idx" ON "Transition"("runId", "step");

-- CreateIndex
CREATE INDEX "ModelTurn_runId_step_idx" ON "ModelTurn"("runId", "step");

-- CreateIndex
CREATE INDEX "ToolCall_runId_step_idx" ON "ToolCall"("runId", "step");

-- CreateIndex
CREATE INDEX "ToolCall_resultHash_idx" ON "ToolCall"("resultHash");

-- CreateIndex
CREATE INDEX "GuardEvent_runId_step_idx" ON "GuardEvent"("runId", "step");

-- CreateIndex
CREATE INDEX "CompactionEvent_runId_step_idx" ON "CompactionEvent"("runId", "step");

-- CreateIndex
CREATE INDEX "RunMessage_hash_idx" ON "RunMessage"("hash");

-- CreateIndex
CREATE INDEX "SuiteRun_createdAt_id_idx" ON "SuiteRun"("createdAt", "id");

-- CreateIndex
CREATE INDEX "SuiteCase_runId_idx" ON "SuiteCase"("runId");
