-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "redactedAt" TIMESTAMP(3);
