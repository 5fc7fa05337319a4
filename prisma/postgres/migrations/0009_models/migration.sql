-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "cachedTokens" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "costKnown" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN     "cachedTokens" INTEGER,
ADD COLUMN     "finishReason" TEXT,
ADD COLUMN     "provider" TEXT;

-- AlterTable
ALTER TABLE "ModelCall" ADD COLUMN     "requestDigest" TEXT,
ADD COLUMN     "responseHash" TEXT;
