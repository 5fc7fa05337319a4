/**
 * The documentation cannot drift from the code (issue 36): the generated references are what
 * `npm run docs:generate` writes now, and every flag and variable README.md and docs/ name exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { declaredFlags, unknownFlags, unknownVariables } from './doc-references';
import { GENERATED_DOCS } from './generate';
import { jsonSchemaOf, schemaRows } from './schema-rows';
import { PolicyDocumentSchema } from '../../lib/governance/policy-file';

const markdown = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? markdown(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []));
const DOCS = ['README.md', ...markdown('docs')];

/** GitHub's anchors of a Markdown file's headings (lower case, punctuation dropped, spaces to dashes). */
function headingSlugs(text: string): Set<string> {
  const headings = text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm);
  return new Set([...headings].map((h) => h[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')));
}

describe('the generated references', () => {
  it.each(Object.keys(GENERATED_DOCS))('%s is what npm run docs:generate writes', async (file) => {
    expect(fs.readFileSync(file, 'utf8')).toBe(await GENERATED_DOCS[file]!());
  });

  it('lists every key of the policy file, those of one form of a rule saying which', () => {
    const rows = schemaRows(jsonSchemaOf(PolicyDocumentSchema), { tenants: '<tenant>', tools: '<tool>' });
    const row = (key: string) => rows.find((r) => r.key === key);
    expect(row('tenants.<tenant>.retention.runs.harness')?.accepts).toBe('an integer from 0 to 36500');
    expect(row('tools.<tool>.rules[].quorum')).toMatchObject({ accepts: 'an integer from 1 to 10', defaultValue: '1', required: false });
    expect(row('tools.<tool>.rules[].quorum')?.note).toContain('only with `effect: approval_required`');
    expect(row('tools.<tool>.rules[].effect')?.accepts).toBe('`"allow"`, or `"deny"`, or `"approval_required"`');
    expect(row('tools.<tool>.rules[].when.gt')?.note).toBe('only in the form with `argument`');
    expect(row('approvalTtlSeconds')?.required).toBe(true);
  });
});

describe('what README.md and docs/ name exists', () => {
  let programs: Map<string, Set<string>>;
  beforeAll(async () => {
    programs = await declaredFlags();
  });

  it('finds a flag no command declares, and a variable nothing reads (the check itself)', () => {
    expect(unknownFlags('npm run stockroom -- run "q" --weaknesses a --no-such-flag   # --json is fine here', programs)).toEqual([
      '--no-such-flag is not a flag of stockroom run: npm run stockroom -- run "q" --weaknesses a --no-such-flag   # --json is fine here',
    ]);
    // A flag of another command is not a flag of this one.
    expect(unknownFlags('`npm run stockroom -- gate --epochs 3`', programs)).toHaveLength(1);
    expect(unknownFlags('npm run worker -- --concurrency 16 and `npm run bench -- --only http --repeat 3`', programs)).toEqual([]);
    expect(unknownFlags('takes `--made-up-flag` too', programs)).toHaveLength(1);
    expect(unknownFlags('(systemctl enable --now stockroom-worker@1)', programs)).toEqual([]);
    expect(unknownFlags('npm run stockroom -- mcp-server --transport http \\\n    [--policy FILE] [--bogus]', programs)).toHaveLength(1);
    expect(unknownVariables('set STOCKROOM_WORKER_NICE=10, STOCKROOM_NO_SUCH_THING and OTEL_SERVICE_NAME, OTEL_MADE_UP')).toEqual([
      'STOCKROOM_NO_SUCH_THING is not a variable the code reads',
      'OTEL_MADE_UP is not read by lib/otel/env.ts',
    ]);
  });

  it.each(DOCS)('every flag %s names is one its command declares', (file) => {
    expect(unknownFlags(fs.readFileSync(file, 'utf8'), programs)).toEqual([]);
  });

  it.each(DOCS)('every STOCKROOM_* and OTEL_* variable %s names is read by the code', (file) => {
    expect(unknownVariables(fs.readFileSync(file, 'utf8'))).toEqual([]);
  });

  it.each(DOCS)('every relative link of %s reaches a file, and a heading there when it names one', (file) => {
    const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue; // http:, https:, mailto:
      const [rel, anchor] = target.split('#') as [string, string | undefined];
      const to = rel === '' ? file : path.join(path.dirname(file), rel);
      if (!fs.existsSync(to)) {
        broken.push(`${target}: no file ${to}`);
        continue;
      }
      if (anchor && to.endsWith('.md') && !headingSlugs(fs.readFileSync(to, 'utf8')).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${to}`);
    }
    expect(broken).toEqual([]);
  });

  it('README.md keeps the commands .ci/run and a newcomer run, and links every guide', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(readme).toContain('```sh\nnpm ci && npm start\n```');
    expect(readme).toContain('```sh\nnpm test\n```');
    for (const file of DOCS.filter((f) => f.startsWith('docs/guides/') || f.startsWith('docs/reference/'))) expect(readme).toContain(`](${file})`);
    for (const m of readme.matchAll(/\]\(((?:docs\/)[^)#]+)/g)) expect(fs.existsSync(m[1]!), m[1]).toBe(true);
  });
});
