-- AlterTable
ALTER TABLE "RunWatch" ADD COLUMN     "claimedBy" TEXT;

-- CreateTable
CREATE TABLE "RunTag" (
    "runId" TEXT NOT NULL,
    "tenant" TEXT NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "RunTag_pkey" PRIMARY KEY ("runId","tag")
);

-- CreateIndex
CREATE INDEX "RunTag_tenant_tag_runId_idx" ON "RunTag"("tenant", "tag", "runId");

-- AddForeignKey
ALTER TABLE "RunTag" ADD CONSTRAINT "RunTag_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
