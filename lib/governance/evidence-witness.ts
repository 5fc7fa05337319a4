/**
 * A witness of the evidence outside the database: the newest anchor (how many chains are registered
 * and the signed running digest) written to a file after the anchor advances. Restoring the whole
 * database from an older snapshot leaves every row consistent with every other; only something the
 * snapshot did not hold can show it (`audit verify --witness FILE`).
 *
 * The file (STOCKROOM_EVIDENCE_WITNESS, default .data/evidence-witness.json; `off` writes none) holds
 * one anchor per database, keyed by the database's origin (the anchor's digest after its first chain,
 * so two databases sharing a file never mix). To keep it somewhere a database administrator cannot
 * write, point the variable at a mounted volume, or ship the file (it is small JSON, signed with the
 * evidence key) to another host or a write-once bucket after each change; `audit verify --witness`
 * takes any copy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GovernanceError } from './errors';
import type { WitnessAnchor } from './evidence-verify';

export const DEFAULT_EVIDENCE_WITNESS_FILE = '.data/evidence-witness.json';
/** Most databases one witness file keeps (the oldest written is dropped first). */
const MAX_WITNESSED_DATABASES = 50;

const WitnessEntrySchema = z.object({ count: z.number().int().min(1), hash: z.string(), signature: z.string(), writtenAt: z.string() });
const WitnessFileSchema = z.object({ version: z.literal(1), anchors: z.record(z.string(), WitnessEntrySchema) });
type WitnessFile = z.infer<typeof WitnessFileSchema>;

/** Where the witness goes (null: `off`). */
export function witnessPath(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const given = env.STOCKROOM_EVIDENCE_WITNESS?.trim();
  if (given === 'off') return null;
  return path.resolve(given || DEFAULT_EVIDENCE_WITNESS_FILE);
}

function readFileOrEmpty(file: string): WitnessFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, anchors: {} };
    throw new GovernanceError('evidence_witness', `cannot read the evidence witness ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GovernanceError('evidence_witness', `the evidence witness ${file} is not JSON`);
  }
  const checked = WitnessFileSchema.safeParse(parsed);
  if (!checked.success) throw new GovernanceError('evidence_witness', `the evidence witness ${file} is malformed (${checked.error.issues[0]?.path.join('.') || 'root'})`);
  return checked.data;
}

/**
 * Records `anchor` for the database `origin` unless the file already holds a newer or equal one
 * (several processes write it; the newest count wins). Written whole to a temporary file and renamed.
 */
export function recordWitness(file: string, origin: string, anchor: WitnessAnchor, now = new Date()): void {
  const current = readFileOrEmpty(file);
  const held = current.anchors[origin];
  if (held && held.count >= anchor.count) return;
  const anchors = { ...current.anchors, [origin]: { count: anchor.count, hash: anchor.hash, signature: anchor.signature, writtenAt: now.toISOString() } };
  const kept = Object.entries(anchors)
    .sort((a, b) => b[1].writtenAt.localeCompare(a[1].writtenAt))
    .slice(0, MAX_WITNESSED_DATABASES);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ version: 1, anchors: Object.fromEntries(kept) }, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * The witnessed anchor of the database `origin` (null origin: the database has no anchor at all).
 * Throws GovernanceError naming the file when it is unreadable or holds nothing for this database.
 */
export function readWitness(file: string, origin: string | null): WitnessAnchor {
  if (!fs.existsSync(file)) throw new GovernanceError('evidence_witness', `no evidence witness at ${file}`);
  const { anchors } = readFileOrEmpty(file);
  if (origin === null) {
    const any = Object.values(anchors)[0];
    if (any) return any; // the database lost even its first chain: any anchor the witness holds shows it
    throw new GovernanceError('evidence_witness', `the evidence witness ${file} holds no anchor`);
  }
  const entry = anchors[origin];
  if (!entry) throw new GovernanceError('evidence_witness', `the evidence witness ${file} holds no anchor for this database`);
  return entry;
}
