-- AlterTable
ALTER TABLE "Run" ADD COLUMN "redactedAt" DATETIME;
