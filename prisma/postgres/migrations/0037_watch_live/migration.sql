-- CreateTable
CREATE TABLE "Evaluator" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "filter" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Evaluator_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunScore" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'evaluator',
    "evaluatorId" TEXT NOT NULL,
    "evaluatorName" TEXT NOT NULL,
    "evaluatorVersion" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "value" DOUBLE PRECISION,
    "detail" TEXT NOT NULL,
    "spendUsd" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RunScore_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunWatch" (
    "runId" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "claimedUntil" TIMESTAMP(3),

    CONSTRAINT "RunWatch_pkey" PRIMARY KEY ("runId")
);

-- CreateTable
CREATE TABLE "RunRolled" (
    "runId" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "contribution" TEXT NOT NULL,

    CONSTRAINT "RunRolled_pkey" PRIMARY KEY ("runId")
);

-- CreateTable
CREATE TABLE "RunHour" (
    "tenant" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "dim" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "termination" TEXT NOT NULL,
    "runs" INTEGER NOT NULL,
    "inputTokens" BIGINT NOT NULL,
    "outputTokens" BIGINT NOT NULL,
    "unreportedCalls" INTEGER NOT NULL,
    "costUsd" DOUBLE PRECISION NOT NULL,
    "costUnknownRuns" INTEGER NOT NULL,
    "guardrailFindings" INTEGER NOT NULL,

    CONSTRAINT "RunHour_pkey" PRIMARY KEY ("tenant","hour","dim","value","termination")
);

-- CreateTable
CREATE TABLE "LatencyHour" (
    "tenant" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "dim" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "LatencyHour_pkey" PRIMARY KEY ("tenant","hour","dim","value","bucket")
);

-- CreateTable
CREATE TABLE "ScoreHour" (
    "tenant" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "dim" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "evaluator" TEXT NOT NULL,
    "sum" DOUBLE PRECISION NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "ScoreHour_pkey" PRIMARY KEY ("tenant","hour","dim","value","evaluator")
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "evaluator" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertEvent" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "ruleName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "window" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "message" TEXT NOT NULL,
    "firedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Evaluator_tenant_idx" ON "Evaluator"("tenant");

-- CreateIndex
CREATE UNIQUE INDEX "Evaluator_tenant_name_key" ON "Evaluator"("tenant", "name");

-- CreateIndex
CREATE INDEX "RunScore_tenant_evaluatorName_score_idx" ON "RunScore"("tenant", "evaluatorName", "score");

-- CreateIndex
CREATE INDEX "RunScore_tenant_evaluatorId_createdAt_idx" ON "RunScore"("tenant", "evaluatorId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "RunScore_runId_evaluatorId_evaluatorVersion_key" ON "RunScore"("runId", "evaluatorId", "evaluatorVersion");

-- CreateIndex
CREATE INDEX "RunWatch_createdAt_idx" ON "RunWatch"("createdAt");

-- CreateIndex
CREATE INDEX "RunHour_tenant_dim_hour_idx" ON "RunHour"("tenant", "dim", "hour");

-- CreateIndex
CREATE INDEX "LatencyHour_tenant_dim_hour_idx" ON "LatencyHour"("tenant", "dim", "hour");

-- CreateIndex
CREATE INDEX "ScoreHour_tenant_dim_hour_idx" ON "ScoreHour"("tenant", "dim", "hour");

-- CreateIndex
CREATE INDEX "AlertRule_tenant_idx" ON "AlertRule"("tenant");

-- CreateIndex
CREATE UNIQUE INDEX "AlertRule_tenant_name_key" ON "AlertRule"("tenant", "name");

-- CreateIndex
CREATE INDEX "AlertEvent_tenant_firedAt_idx" ON "AlertEvent"("tenant", "firedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AlertEvent_ruleId_window_key" ON "AlertEvent"("ruleId", "window");

-- AddForeignKey
ALTER TABLE "RunScore" ADD CONSTRAINT "RunScore_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunWatch" ADD CONSTRAINT "RunWatch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
