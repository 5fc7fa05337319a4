-- A suite case is stored once per epoch (issue 35): the epoch joins the stored suite-case identity.
-- Rows stored before are epoch 0, so old suites read as one epoch each.

-- AlterTable (a plain ADD COLUMN: no need to rebuild Run)
ALTER TABLE "Run" ADD COLUMN "epoch" INTEGER NOT NULL DEFAULT 0;

-- The unique suite case of a run now includes its epoch.
DROP INDEX "Run_suiteRunId_setting_caseId_key";
CREATE UNIQUE INDEX "Run_suiteRunId_setting_caseId_epoch_key" ON "Run"("suiteRunId", "setting", "caseId", "epoch");

-- RedefineTables (SQLite cannot change a primary key in place)
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_SuiteCase" (
    "suiteRunId" TEXT NOT NULL,
    "setting" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "epoch" INTEGER NOT NULL DEFAULT 0,
    "category" TEXT,
    "runId" TEXT,
    "scores" TEXT NOT NULL,

    PRIMARY KEY ("suiteRunId", "setting", "caseId", "epoch"),
    CONSTRAINT "SuiteCase_suiteRunId_fkey" FOREIGN KEY ("suiteRunId") REFERENCES "SuiteRun" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SuiteCase_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_SuiteCase" ("caseId", "category", "runId", "scores", "setting", "suiteRunId") SELECT "caseId", "category", "runId", "scores", "setting", "suiteRunId" FROM "SuiteCase";
DROP TABLE "SuiteCase";
ALTER TABLE "new_SuiteCase" RENAME TO "SuiteCase";
CREATE INDEX "SuiteCase_runId_idx" ON "SuiteCase"("runId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
