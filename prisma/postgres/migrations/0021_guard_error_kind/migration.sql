-- AlterTable
ALTER TABLE "GuardEvent" ADD COLUMN     "errorKind" TEXT;
