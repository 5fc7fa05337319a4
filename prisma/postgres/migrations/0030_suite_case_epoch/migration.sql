-- A suite case is stored once per epoch (issue 35): the epoch joins the stored suite-case identity.
-- Rows stored before are epoch 0, so old suites read as one epoch each.

-- DropIndex
DROP INDEX "Run_suiteRunId_setting_caseId_key";

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "epoch" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "SuiteCase" DROP CONSTRAINT "SuiteCase_pkey",
ADD COLUMN     "epoch" INTEGER NOT NULL DEFAULT 0,
ADD CONSTRAINT "SuiteCase_pkey" PRIMARY KEY ("suiteRunId", "setting", "caseId", "epoch");

-- CreateIndex
CREATE UNIQUE INDEX "Run_suiteRunId_setting_caseId_epoch_key" ON "Run"("suiteRunId", "setting", "caseId", "epoch");
