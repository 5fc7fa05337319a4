import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The one component allowed to set inner HTML: it inserts mermaid's own SVG (securityLevel 'strict'). */
const ALLOWED = new Set(['components/mermaid-diagram.tsx']);

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.(tsx?|jsx?)$/.test(e.name) && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

describe('rendering of untrusted text', () => {
  it('never uses dangerouslySetInnerHTML or innerHTML outside the mermaid component', () => {
    const offenders = [...sources('app'), ...sources('components')].filter((file) => {
      if (ALLOWED.has(file)) return false;
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      return /dangerouslySetInnerHTML|\.innerHTML\s*=/.test(text);
    });
    expect(offenders).toEqual([]);
  });

  it('initialises mermaid with securityLevel strict', () => {
    const text = fs.readFileSync(path.join(ROOT, 'components/mermaid-diagram.tsx'), 'utf8');
    expect(text).toMatch(/securityLevel:\s*'strict'/);
  });
});
