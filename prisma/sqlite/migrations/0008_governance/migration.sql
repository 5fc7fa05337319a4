-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_EvidenceChain" (
    "chain" TEXT NOT NULL PRIMARY KEY,
    "anchorSeq" INTEGER,
    "seq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_EvidenceChain" ("anchorSeq", "chain", "createdAt", "hash", "seq", "signature") SELECT "anchorSeq", "chain", "createdAt", "hash", "seq", "signature" FROM "EvidenceChain";
DROP TABLE "EvidenceChain";
ALTER TABLE "new_EvidenceChain" RENAME TO "EvidenceChain";
CREATE UNIQUE INDEX "EvidenceChain_anchorSeq_key" ON "EvidenceChain"("anchorSeq");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
