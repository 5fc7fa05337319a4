-- AlterTable
ALTER TABLE "Run" ADD COLUMN "redactions" TEXT;

-- CreateTable
CREATE TABLE "PseudonymKey" (
    "tenant" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("tenant", "subject")
);
