-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "redactions" TEXT;

-- CreateTable
CREATE TABLE "PseudonymKey" (
    "tenant" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PseudonymKey_pkey" PRIMARY KEY ("tenant","subject")
);
