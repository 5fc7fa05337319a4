-- AlterTable
ALTER TABLE "EvidenceChain" ALTER COLUMN "anchorSeq" DROP NOT NULL;
