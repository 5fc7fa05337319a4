-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "unreportedCalls" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "usageDetail" TEXT;

-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN     "usageEstimate" TEXT,
ALTER COLUMN "inputTokens" DROP NOT NULL,
ALTER COLUMN "outputTokens" DROP NOT NULL;

-- AlterTable
ALTER TABLE "JudgeCall" ALTER COLUMN "inputTokens" DROP NOT NULL,
ALTER COLUMN "outputTokens" DROP NOT NULL;
