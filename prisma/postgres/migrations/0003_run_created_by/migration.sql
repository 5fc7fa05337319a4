-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "createdBy" TEXT;
