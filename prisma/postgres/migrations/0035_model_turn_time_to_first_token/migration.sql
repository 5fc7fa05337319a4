-- AlterTable
ALTER TABLE "ModelTurn" ADD COLUMN     "timeToFirstTokenMs" DOUBLE PRECISION;
