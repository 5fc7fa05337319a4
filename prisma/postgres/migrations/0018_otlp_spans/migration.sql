-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "sessionId" TEXT,
ADD COLUMN     "traceUserId" TEXT;

-- CreateTable
CREATE TABLE "OtlpSpan" (
    "tenant" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "spanId" TEXT NOT NULL,
    "parentSpanId" TEXT,
    "name" TEXT NOT NULL,
    "kind" INTEGER NOT NULL,
    "startNs" BIGINT NOT NULL,
    "endNs" BIGINT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "statusMessage" TEXT NOT NULL,
    "serviceName" TEXT,
    "attributes" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OtlpSpan_pkey" PRIMARY KEY ("tenant","traceId","spanId")
);

-- CreateTable
CREATE TABLE "OtlpLog" (
    "tenant" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "spanId" TEXT NOT NULL,
    "timeNs" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "attributes" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OtlpLog_pkey" PRIMARY KEY ("tenant","traceId","digest")
);

-- CreateTable
CREATE TABLE "OtlpTrace" (
    "tenant" TEXT NOT NULL,
    "traceId" TEXT NOT NULL,
    "runId" TEXT,
    "spanCount" INTEGER NOT NULL,
    "rootEnded" BOOLEAN NOT NULL,
    "lastSpanAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OtlpTrace_pkey" PRIMARY KEY ("tenant","traceId")
);

-- CreateIndex
CREATE INDEX "OtlpTrace_rootEnded_lastSpanAt_idx" ON "OtlpTrace"("rootEnded", "lastSpanAt");

-- CreateIndex
CREATE INDEX "Run_tenant_sessionId_startedAt_idx" ON "Run"("tenant", "sessionId", "startedAt");

-- CreateIndex
CREATE INDEX "Run_tenant_traceUserId_startedAt_idx" ON "Run"("tenant", "traceUserId", "startedAt");
