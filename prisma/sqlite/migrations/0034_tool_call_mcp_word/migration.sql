-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN "schemaViolation" TEXT;
ALTER TABLE "ToolCall" ADD COLUMN "progress" TEXT;

-- AlterTable
ALTER TABLE "ToolServerListing" ADD COLUMN "protectedResource" BOOLEAN;
