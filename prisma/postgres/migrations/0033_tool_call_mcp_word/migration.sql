-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN      "schemaViolation" TEXT;
ALTER TABLE "ToolCall" ADD COLUMN      "progress" TEXT;
