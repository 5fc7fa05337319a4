-- CreateTable
CREATE TABLE "LabelSet" (
    "tenant" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "labels" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabelSet_pkey" PRIMARY KEY ("tenant","version")
);

-- CreateTable
CREATE TABLE "RunLabel" (
    "id" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "step" INTEGER,
    "labelSetVersion" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "category" TEXT,
    "score" DOUBLE PRECISION,
    "comment" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdByName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "digest" TEXT NOT NULL,
    "evidenceSeq" INTEGER NOT NULL,

    CONSTRAINT "RunLabel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GoldenSet" (
    "tenant" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "jsonl" TEXT NOT NULL,
    "caseCount" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GoldenSet_pkey" PRIMARY KEY ("tenant","name","version")
);

-- CreateIndex
CREATE INDEX "RunLabel_tenant_runId_createdAt_idx" ON "RunLabel"("tenant", "runId", "createdAt");

-- CreateIndex
CREATE INDEX "RunLabel_tenant_verdict_idx" ON "RunLabel"("tenant", "verdict");

-- AddForeignKey
ALTER TABLE "RunLabel" ADD CONSTRAINT "RunLabel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
