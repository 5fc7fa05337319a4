-- AlterTable
ALTER TABLE "GovernedRun" ADD COLUMN "redactions" TEXT;
ALTER TABLE "GovernedRun" ADD COLUMN "sealed" TEXT;

-- AlterTable
ALTER TABLE "ApprovalRequest" ADD COLUMN "redactions" TEXT;
ALTER TABLE "ApprovalRequest" ADD COLUMN "sealedArguments" TEXT;

-- AlterTable
ALTER TABLE "EffectJournalEntry" ADD COLUMN "redactions" TEXT;
