-- CreateTable
CREATE TABLE "RunGuardOn" (
    "runId" TEXT NOT NULL,
    "guard" TEXT NOT NULL,

    CONSTRAINT "RunGuardOn_pkey" PRIMARY KEY ("runId","guard")
);

-- CreateTable
CREATE TABLE "RunSearch" (
    "seq" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "RunSearch_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE INDEX "RunGuardOn_guard_runId_idx" ON "RunGuardOn"("guard", "runId");

-- CreateIndex
CREATE UNIQUE INDEX "RunSearch_runId_key" ON "RunSearch"("runId");

-- CreateIndex
CREATE INDEX "Run_tenant_modelId_idx" ON "Run"("tenant", "modelId");

-- AddForeignKey
ALTER TABLE "RunGuardOn" ADD CONSTRAINT "RunGuardOn_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunSearch" ADD CONSTRAINT "RunSearch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Substring index over RunSearch.body (hand-written). pg_trgm's GIN index serves ILIKE '%…%' for
-- any pattern of 3+ characters, case-insensitively: a tracking number is found inside a JSON string
-- or a longer token. A tsvector would split identifiers by its own parser rules and need whole
-- lexemes, so "1Z999AA1" inside "ref:1Z999AA10123" would not match; trigrams give SQLite's FTS5
-- trigram semantics, so both providers return the same runs for the same text.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "RunSearch_body_trgm_idx" ON "RunSearch" USING GIN ("body" gin_trgm_ops);

-- Backfill the runs stored before this migration, in the layout lib/db/run-search.ts writes:
-- sections "<code>\x1f<text>" joined by \x1e; Q question, A answer, C:<tool> arguments, R:<tool> result;
-- each distinct section once, in order of first appearance.
INSERT INTO "RunSearch" ("runId", "body")
SELECT r."id", left(
    'Q' || chr(31) || translate(r."query", chr(30) || chr(31), '  ')
    || chr(30) || 'A' || chr(31) || translate(r."finalAnswer", chr(30) || chr(31), '  ')
    || COALESCE((
      SELECT string_agg("part", '' ORDER BY "first") FROM (
        SELECT "part", min("pos") AS "first" FROM (
          SELECT chr(30) || 'C:' || t."name" || chr(31) || t."arguments" AS "part", t."idx" * 2 AS "pos"
          FROM "ToolCall" t WHERE t."runId" = r."id"
          UNION ALL
          SELECT chr(30) || 'R:' || t."name" || chr(31) || COALESCE(b."text", ''), t."idx" * 2 + 1
          FROM "ToolCall" t LEFT JOIN "Blob" b ON b."hash" = t."resultHash" WHERE t."runId" = r."id"
        ) AS "sections" GROUP BY "part"
      ) AS "distinct_sections"
    ), ''),
    200000)
FROM "Run" r;

-- Backfill the guards each stored run was configured with.
INSERT INTO "RunGuardOn" ("runId", "guard")
SELECT r."id", g FROM "Run" r
CROSS JOIN LATERAL jsonb_array_elements_text(
  CASE WHEN jsonb_typeof(r."config"::jsonb -> 'guards') = 'array' THEN r."config"::jsonb -> 'guards' ELSE '[]'::jsonb END) AS g
ON CONFLICT DO NOTHING;
