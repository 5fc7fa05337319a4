/**
 * Issue 22 §6: an OTLP span attribute holding an unpaired UTF-16 surrogate (or a NUL, which
 * PostgreSQL's text refuses) made the receiver answer 500 and log the payload's text. It is now a 400
 * naming the attribute's path, nothing is stored, and the server log never prints the content; on
 * both databases.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { migrate } from '@/scripts/db-migrate.mjs';
import { describeOnDatabases } from '@/lib/db/testing/on-databases';
import { hashToken } from '@/lib/otel/ingest-tokens';

const TOKEN = 'tenant-a-token-0123456789abcdef';
const FIXTURE = path.resolve(import.meta.dirname, '../../../../../lib/otel/testing/fixtures/genai-python-agent.json');
const SECRET = 'PROMPT-TEXT-THAT-MUST-NOT-BE-LOGGED';

/** The fixture trace with one tool-call argument replaced by `text` (written as JSON, so "\ud800" stays a lone surrogate). */
function traceWith(jsonEscapedText: string): { body: string; path: string } {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: unknown }[] }[] }[] }[] };
  const attrs = doc.resourceSpans[0]!.scopeSpans[0]!.spans[1]!.attributes;
  const i = attrs.findIndex((a) => a.key === 'gen_ai.tool.call.arguments');
  attrs[i]!.value = { stringValue: '@@TEXT@@' };
  return {
    body: JSON.stringify(doc).replace('"@@TEXT@@"', `"${SECRET} ${jsonEscapedText}"`),
    path: `resourceSpans[0].scopeSpans[0].spans[1].attributes[${i}].value.stringValue`,
  };
}

describeOnDatabases('OTLP text the database cannot hold, on $name', ({ provider, test, t }) => {
  const env = { ...process.env };
  beforeAll(async () => {
    if (provider.skipReason) return;
    await migrate({ url: t.url });
    process.env.DATABASE_URL = t.url;
    process.env.STOCKROOM_OTLP_TOKENS = `acme:${hashToken(TOKEN)}`;
    delete (globalThis as { __stockroomDb?: unknown }).__stockroomDb;
  });
  afterAll(async () => {
    const cached = (globalThis as { __stockroomDb?: { close(): Promise<void> } }).__stockroomDb;
    delete (globalThis as { __stockroomDb?: unknown }).__stockroomDb;
    await cached?.close();
    process.env = { ...env };
  });

  test.each([
    ['an unpaired surrogate', '\\ud800 and more'],
    ['a NUL character', 'before\\u0000after'],
  ])('%s is a 400 naming the path, stores nothing, and logs no content', async (_what, text) => {
    const { POST } = await import('./route');
    const { countRuns } = await import('@/lib/db/runs/runs-list');
    const logged: string[] = [];
    const spies = (['error', 'warn', 'log', 'info'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '))),
    );
    try {
      const trace = traceWith(text);
      const before = (await countRuns({ source: 'imported' })).count;
      const res = await POST(new Request('http://127.0.0.1/api/otlp/v1/traces', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: trace.body }));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; fieldErrors: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors)).toEqual([trace.path]);
      expect(JSON.stringify(body)).not.toContain(SECRET);
      expect((await countRuns({ source: 'imported' })).count).toBe(before);
      expect(logged.join('\n')).not.toContain(SECRET);
    } finally {
      for (const s of spies) s.mockRestore();
    }
  });
});
