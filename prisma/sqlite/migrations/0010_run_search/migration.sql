-- CreateTable
CREATE TABLE "RunGuardOn" (
    "runId" TEXT NOT NULL,
    "guard" TEXT NOT NULL,

    PRIMARY KEY ("runId", "guard"),
    CONSTRAINT "RunGuardOn_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunSearch" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    CONSTRAINT "RunSearch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "RunGuardOn_guard_runId_idx" ON "RunGuardOn"("guard", "runId");

-- CreateIndex
CREATE UNIQUE INDEX "RunSearch_runId_key" ON "RunSearch"("runId");

-- CreateIndex
CREATE INDEX "Run_tenant_modelId_idx" ON "Run"("tenant", "modelId");

-- Full-text index over RunSearch.body (hand-written: Prisma has no virtual tables). The trigram
-- tokenizer matches any substring of 3+ characters, case-insensitively: a tracking number is found
-- inside a JSON string or a longer token, where a word tokenizer would need the whole token.
-- External content: the text lives once, in RunSearch; triggers keep the index in step (they also
-- fire for rows removed by the ON DELETE CASCADE from Run).
CREATE VIRTUAL TABLE "RunSearchFts" USING fts5("body", content='RunSearch', content_rowid='seq', tokenize='trigram case_sensitive 0');

CREATE TRIGGER "RunSearch_fts_insert" AFTER INSERT ON "RunSearch" BEGIN
  INSERT INTO "RunSearchFts" ("rowid", "body") VALUES (new."seq", new."body");
END;

CREATE TRIGGER "RunSearch_fts_delete" AFTER DELETE ON "RunSearch" BEGIN
  INSERT INTO "RunSearchFts" ("RunSearchFts", "rowid", "body") VALUES ('delete', old."seq", old."body");
END;

CREATE TRIGGER "RunSearch_fts_update" AFTER UPDATE ON "RunSearch" BEGIN
  INSERT INTO "RunSearchFts" ("RunSearchFts", "rowid", "body") VALUES ('delete', old."seq", old."body");
  INSERT INTO "RunSearchFts" ("rowid", "body") VALUES (new."seq", new."body");
END;

-- Backfill the runs stored before this migration, in the layout lib/db/run-search.ts writes:
-- sections "<code>\x1f<text>" joined by \x1e; Q question, A answer, C:<tool> arguments, R:<tool> result;
-- each distinct section once, in order of first appearance.
INSERT INTO "RunSearch" ("runId", "body")
SELECT r."id", substr(
    'Q' || char(31) || replace(replace(r."query", char(30), ' '), char(31), ' ')
    || char(30) || 'A' || char(31) || replace(replace(r."finalAnswer", char(30), ' '), char(31), ' ')
    || COALESCE((
      SELECT group_concat("part", '') FROM (
        SELECT "part", min("pos") AS "first" FROM (
          SELECT char(30) || 'C:' || t."name" || char(31) || t."arguments" AS "part", t."idx" * 2 AS "pos"
          FROM "ToolCall" t WHERE t."runId" = r."id"
          UNION ALL
          SELECT char(30) || 'R:' || t."name" || char(31) || COALESCE(b."text", ''), t."idx" * 2 + 1
          FROM "ToolCall" t LEFT JOIN "Blob" b ON b."hash" = t."resultHash" WHERE t."runId" = r."id"
        ) GROUP BY "part" ORDER BY "first"
      )
    ), ''),
    1, 200000)
FROM "Run" r;

-- Backfill the guards each stored run was configured with.
INSERT OR IGNORE INTO "RunGuardOn" ("runId", "guard")
SELECT r."id", g."value" FROM "Run" r, json_each(CASE WHEN json_valid(r."config") THEN r."config" ELSE '{}' END, '$.guards') g
WHERE g."type" = 'text';
