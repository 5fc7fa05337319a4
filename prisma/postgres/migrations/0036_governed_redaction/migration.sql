-- AlterTable
ALTER TABLE "GovernedRun" ADD COLUMN     "redactions" TEXT,
ADD COLUMN     "sealed" TEXT;

-- AlterTable
ALTER TABLE "ApprovalRequest" ADD COLUMN     "redactions" TEXT,
ADD COLUMN     "sealedArguments" TEXT;

-- AlterTable
ALTER TABLE "EffectJournalEntry" ADD COLUMN     "redactions" TEXT;
