-- AlterTable
ALTER TABLE "Run" ADD COLUMN "toolProgress" TEXT;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN "mediaHash" TEXT;

-- CreateTable
CREATE TABLE "ToolServerListing" (
    "tenant" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "listing" TEXT,
    "error" TEXT,
    "refreshedAt" DATETIME NOT NULL,
    "refreshedBy" TEXT NOT NULL,
    "durationMs" INTEGER NOT NULL,

    PRIMARY KEY ("tenant", "serverId")
);

-- CreateTable
CREATE TABLE "McpOAuthCredential" (
    "tenant" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "expiresAt" DATETIME,
    "pendingState" TEXT,
    "updatedAt" DATETIME NOT NULL,
    "updatedBy" TEXT NOT NULL,

    PRIMARY KEY ("tenant", "serverId")
);

-- CreateIndex
CREATE INDEX "McpOAuthCredential_pendingState_idx" ON "McpOAuthCredential"("pendingState");
