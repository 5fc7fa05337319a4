-- AlterTable
ALTER TABLE "RunWatch" ADD COLUMN "claimedBy" TEXT;
