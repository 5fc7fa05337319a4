-- AlterTable
ALTER TABLE "WorkerHeartbeat" ADD COLUMN "slots" INTEGER;
