-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "taintedStep" INTEGER;

-- AlterTable
ALTER TABLE "ToolCall" ADD COLUMN     "taint" TEXT;
