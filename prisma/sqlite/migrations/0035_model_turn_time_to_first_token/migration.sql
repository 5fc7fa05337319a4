-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN "timeToFirstTokenMs" REAL;
