-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN     "cacheWriteTokens" INTEGER;
