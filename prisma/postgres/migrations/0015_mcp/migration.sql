-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "toolProgress" TEXT;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "mediaHash" TEXT;

-- CreateTable
CREATE TABLE "ToolServerListing" (
    "tenant" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "listing" TEXT,
    "error" TEXT,
    "refreshedAt" TIMESTAMP(3) NOT NULL,
    "refreshedBy" TEXT NOT NULL,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "ToolServerListing_pkey" PRIMARY KEY ("tenant","serverId")
);

-- CreateTable
CREATE TABLE "McpOAuthCredential" (
    "tenant" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "pendingState" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "McpOAuthCredential_pkey" PRIMARY KEY ("tenant","serverId")
);

-- CreateIndex
CREATE INDEX "McpOAuthCredential_pendingState_idx" ON "McpOAuthCredential"("pendingState");
