-- AlterTable
ALTER TABLE "ProviderCall" ADD COLUMN     "tokens" INTEGER NOT NULL DEFAULT 0;
