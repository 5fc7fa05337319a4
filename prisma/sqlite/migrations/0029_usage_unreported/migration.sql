-- AlterTable (a plain ADD COLUMN: no need to rebuild Run)
ALTER TABLE "Run" ADD COLUMN "unreportedCalls" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Run" ADD COLUMN "usageDetail" TEXT;

-- RedefineTables (SQLite cannot drop NOT NULL in place: ModelTurn's token counts become nullable, null = not reported)
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ModelTurn" (
    "runId" TEXT NOT NULL,
    "idx" INTEGER NOT NULL,
    "step" INTEGER NOT NULL,
    "text" TEXT,
    "toolCalls" TEXT NOT NULL,
    "stopReason" TEXT NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "usageEstimate" TEXT,
    "latencyMs" REAL NOT NULL,
    "contextTokensEstimate" INTEGER NOT NULL,
    "provider" TEXT,
    "finishReason" TEXT,
    "cachedTokens" INTEGER,
    "cacheWriteTokens" INTEGER,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "startMs" REAL,
    "endMs" REAL,
    "agentIdx" INTEGER,
    "spanId" TEXT,
    "parentSpanId" TEXT,
    "providerId" TEXT,
    "model" TEXT,
    "costUsd" REAL,
    "costNote" TEXT,

    PRIMARY KEY ("runId", "idx"),
    CONSTRAINT "ModelTurn_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ModelTurn" ("agentIdx", "cacheWriteTokens", "cachedTokens", "contextTokensEstimate", "costNote", "costUsd", "endMs", "endedAt", "finishReason", "idx", "inputTokens", "latencyMs", "model", "outputTokens", "parentSpanId", "provider", "providerId", "runId", "spanId", "startMs", "startedAt", "step", "stopReason", "text", "toolCalls") SELECT "agentIdx", "cacheWriteTokens", "cachedTokens", "contextTokensEstimate", "costNote", "costUsd", "endMs", "endedAt", "finishReason", "idx", "inputTokens", "latencyMs", "model", "outputTokens", "parentSpanId", "provider", "providerId", "runId", "spanId", "startMs", "startedAt", "step", "stopReason", "text", "toolCalls" FROM "ModelTurn";
DROP TABLE "ModelTurn";
ALTER TABLE "new_ModelTurn" RENAME TO "ModelTurn";
CREATE INDEX "ModelTurn_runId_step_idx" ON "ModelTurn"("runId", "step");
CREATE TABLE "new_JudgeCall" (
    "tenant" TEXT NOT NULL,
    "judge" TEXT NOT NULL,
    "requestDigest" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "raw" TEXT,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("tenant", "judge", "requestDigest")
);
INSERT INTO "new_JudgeCall" ("createdAt", "inputTokens", "judge", "outputTokens", "raw", "request", "requestDigest", "response", "tenant") SELECT "createdAt", "inputTokens", "judge", "outputTokens", "raw", "request", "requestDigest", "response", "tenant" FROM "JudgeCall";
DROP TABLE "JudgeCall";
ALTER TABLE "new_JudgeCall" RENAME TO "JudgeCall";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
