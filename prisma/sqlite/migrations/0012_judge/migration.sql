-- AlterTable
ALTER TABLE "ModelCall" ADD COLUMN "rawResponseHash" TEXT;

-- CreateTable
CREATE TABLE "JudgeCall" (
    "tenant" TEXT NOT NULL,
    "judge" TEXT NOT NULL,
    "requestDigest" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "response" TEXT NOT NULL,
    "raw" TEXT,
    "inputTokens" INTEGER NOT NULL,
    "outputTokens" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("tenant", "judge", "requestDigest")
);

-- CreateTable
CREATE TABLE "JudgeCalibration" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenant" TEXT NOT NULL,
    "judge" TEXT NOT NULL,
    "rubricVersion" TEXT NOT NULL,
    "setName" TEXT NOT NULL,
    "setSha256" TEXT NOT NULL,
    "items" INTEGER NOT NULL,
    "scored" INTEGER NOT NULL,
    "unscored" INTEGER NOT NULL,
    "agreement" REAL,
    "kappa" REAL,
    "providerCalls" INTEGER NOT NULL,
    "detail" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "JudgeCalibration_tenant_createdAt_id_idx" ON "JudgeCalibration"("tenant", "createdAt", "id");
