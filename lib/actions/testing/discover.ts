/**
 * Finds every server action and route handler from the files, so the authorization and tenant
 * isolation tests cover a new one without being told about it.
 */
import fs from 'node:fs';
import path from 'node:path';

export const ACTIONS_DIR = path.resolve('lib/actions');
export const API_DIR = path.resolve('app/api');

/** Every export of every `'use server'` file in lib/actions. */
export function discoverActions(): { file: string; name: string }[] {
  const out: { file: string; name: string }[] = [];
  for (const file of fs.readdirSync(ACTIONS_DIR).sort()) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(path.join(ACTIONS_DIR, file), 'utf8');
    if (!/^\s*['"]use server['"]/.test(text)) continue;
    for (const m of text.matchAll(/^export (?:const|async function|function) (\w+)/gm)) out.push({ file, name: m[1]! });
  }
  return out;
}

/** Every route under app/api, as its path relative to app/api (e.g. `runs/[id]/steps`). */
export function discoverRoutes(dir = API_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return discoverRoutes(p);
    return e.name === 'route.ts' ? [path.relative(API_DIR, path.dirname(p))] : [];
  });
}
