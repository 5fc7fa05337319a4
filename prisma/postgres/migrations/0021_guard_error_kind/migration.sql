-- AlterTable
ALTER TABLE "GuardEvent" ADD COLUMN     "errorKind" TEXT;

-- DropIndex
DROP INDEX "Run_costUsd_id_idx";

-- CreateIndex
CREATE INDEX "Run_costKnown_costUsd_id_idx" ON "Run"("costKnown", "costUsd", "id");
