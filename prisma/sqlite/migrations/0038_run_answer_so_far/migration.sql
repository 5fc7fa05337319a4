-- AlterTable
ALTER TABLE "Run" ADD COLUMN "answerSoFar" TEXT;
