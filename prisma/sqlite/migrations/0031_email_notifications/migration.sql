-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN "smtp" TEXT;
