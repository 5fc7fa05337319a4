/**
 * A one-file build of the stdio server, so a stdio executor starts its child with plain `node`
 * (~0.2 s) instead of tsx (~0.8 s: tsx hooks every one of the SDK's modules). A matrix starts one
 * child per flag setting, so this is most of the mcp-stdio benchmark. The build is cached under
 * node_modules/.cache and rebuilt when any repository source it was built from changes (or the
 * lockfile does). esbuild is not a direct dependency (it arrives with tsx and vite): without it the
 * executor falls back to running the TypeScript entry through tsx.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, STDIO_ENTRY } from '../shared';

const CACHE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'stockroom-mcp');
const BUNDLE = path.join(CACHE_DIR, 'stdio-server.mjs');
const MANIFEST = path.join(CACHE_DIR, 'stdio-server.manifest.json');
/** Standing in for every file under node_modules: they change only with the lockfile. */
const LOCKFILE = path.join(REPO_ROOT, 'package-lock.json');

type Manifest = Record<string, string>;

function fingerprint(file: string): string {
  try {
    const s = statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

function isFresh(): boolean {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest; // our own file, written below
  } catch {
    return false;
  }
  if (fingerprint(BUNDLE) === 'missing') return false;
  return Object.entries(manifest).every(([file, print]) => fingerprint(file) === print);
}

let building: Promise<string | null> | null = null;

async function build(): Promise<string | null> {
  let esbuild: typeof import('esbuild');
  try {
    // Not traced by Turbopack: following esbuild's native binary into the server bundle fails the
    // build ("Unknown module type" on @esbuild/linux-x64); node resolves it at run time.
    esbuild = await import(/* turbopackIgnore: true */ /* webpackIgnore: true */ 'esbuild');
  } catch {
    return null;
  }
  mkdirSync(CACHE_DIR, { recursive: true });
  const tmp = `${BUNDLE}.${process.pid}.${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 8)}`;
  const result = await esbuild.build({
    entryPoints: [STDIO_ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: tmp,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });
  const manifest: Manifest = { [LOCKFILE]: fingerprint(LOCKFILE) };
  for (const input of Object.keys(result.metafile.inputs)) {
    if (input.includes('node_modules')) continue;
    const abs = path.resolve(REPO_ROOT, input);
    manifest[abs] = fingerprint(abs);
  }
  // Rename is atomic, so a concurrent reader never sees half a bundle.
  renameSync(tmp, BUNDLE);
  writeFileSync(`${MANIFEST}.${process.pid}`, JSON.stringify(manifest));
  renameSync(`${MANIFEST}.${process.pid}`, MANIFEST);
  return BUNDLE;
}

/** The bundled stdio server, built if missing or stale; null when it cannot be built. */
export async function bundledStdioEntry(): Promise<string | null> {
  if (isFresh()) return BUNDLE;
  building ??= build()
    .catch(() => null)
    .finally(() => {
      building = null;
    });
  return building;
}
