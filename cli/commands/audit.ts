/**
 * `stockroom audit …`, the governance evidence:
 *   verify [--witness FILE] [--public-key FILE]   recomputes every evidence event's hash and link,
 *       checks the signatures of events, chain heads and the anchor, that every governed run, journal
 *       entry, ledger record, decision and reviewer's label has its events, and with --witness that the
 *       database's anchor is not older than the one written outside it; exits 1 naming the first bad
 *       event or record. Without --public-key it uses the server's keys (the HMAC secret and the
 *       Ed25519 public keys); with it, the public keys in FILE alone — no secret needed or read.
 *   verify --bundle FILE --public-key FILE   verifies an exported bundle; no database, no secret.
 *   public-key                 prints the Ed25519 public keys (current first, then retired).
 *   rotate-key                 a new signing key from now on; the old public key is kept to verify.
 *   export --run ID --tenant T --as EMAIL [--out FILE]   writes the run's evidence bundle (reviewer).
 */
import fs from 'node:fs';
import path from 'node:path';
import { GovernanceError } from '../../lib/governance/errors';
import { verifierKeyring } from '../../lib/governance/evidence-key';
import { loadSigningKeys, parsePublicKeys, publicKeysPem, rotateSigningKey } from '../../lib/governance/evidence-public-key';
import { publicKeyring, type EvidenceKey } from '../../lib/governance/evidence-signing';
import { verifyBundle } from '../../lib/governance/evidence-bundle';
import type { ChainVerification, RedactionSince, WitnessAnchor } from '../../lib/governance/evidence-verify';
import { NotFoundError } from '../../lib/db/core/errors';
import { evidenceBundleOfRun, verifyStoredChain, witnessForDatabase } from '../../lib/db/governance/governance-evidence';
import { TenantSchema } from '../../lib/schemas/datasets';
import { openMigratedDatabase } from '../database';
import { actingUserId } from '../acting-user';
import { CliUsageError, parseArgs, stringFlag, type FlagSpec } from '../args';
import type { CliCommand } from '../command';

const FLAGS: FlagSpec = {
  witness: { type: 'string', description: 'the evidence witness file (STOCKROOM_EVIDENCE_WITNESS) to check the anchor against' },
  'public-key': { type: 'string', description: 'verify with the Ed25519 public keys in FILE alone (what `audit public-key` prints)' },
  bundle: { type: 'string', description: 'verify an evidence bundle written by `audit export` (with --public-key)' },
  run: { type: 'string', description: 'export: the run whose evidence to bundle' },
  tenant: { type: 'string', description: 'export: the run\'s tenant' },
  as: { type: 'string', description: 'export: the dashboard user (reviewer or admin in the tenant) exporting' },
  out: { type: 'string', description: 'export: write the bundle to FILE (default: stdout)' },
};

function fail(err: unknown): number {
  if (!(err instanceof GovernanceError)) throw err;
  process.stderr.write(`audit: ${err.message}\n`);
  return 2;
}

/**
 * What redaction at rest covers (issue 33): per tenant, the classes kept out and since when; runs
 * stored before then hold their content as it was stored (a class added later did not reach back).
 */
export function redactionLines(since: readonly RedactionSince[]): string[] {
  return since.map((s) => {
    const what = s.classes.length ? `keeps ${s.classes.join(', ')} out of content stored since ${s.since}` : `keeps nothing out of content stored since ${s.since}`;
    const before = s.storedBefore > 0 ? `; ${s.storedBefore} run(s) stored before then hold their content as it was stored (under the classes of their time, if any)` : '';
    const rewritten = s.rewritten > 0 ? `; ${s.rewritten} run(s) stored before then rewritten under them (redact --rewrite)` : '';
    return `audit: redaction at rest: tenant ${s.tenant} ${what}${before}${rewritten}`;
  });
}

function report(r: ChainVerification, suffix = ''): number {
  if (r.ok) {
    const erased = r.erased ? `; ${r.erased} run(s) erased, their evidence kept` : '';
    const retained = Object.entries(r.removedByRetention ?? {})
      .map(([version, n]) => `; ${n} run(s) removed by retention policy v${version.slice(0, 12)}`)
      .join('');
    process.stdout.write(`audit: evidence intact (${r.events} events in ${r.chains} signed chains, anchor ${r.head.slice(0, 16)}…${erased}${retained}${suffix})\n`);
    for (const line of redactionLines(r.redactionSince ?? [])) process.stdout.write(`${line}\n`);
    return 0;
  }
  const where = r.seq === null ? `chain ${r.chain}` : `chain ${r.chain} event ${r.seq}`;
  process.stderr.write(`audit: evidence BROKEN at ${where}: ${r.reason}\n`);
  return 1;
}

function publicKeysFrom(file: string): EvidenceKey {
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(resolved, 'utf8');
  } catch (err) {
    throw new GovernanceError('evidence_key', `cannot read the public key file ${resolved}: ${(err as Error).message}`);
  }
  return publicKeyring(parsePublicKeys(text, resolved));
}

async function verify(args: ReturnType<typeof parseArgs>): Promise<number> {
  const publicKeyFile = stringFlag(args, 'public-key');
  const bundleFile = stringFlag(args, 'bundle');
  let key: EvidenceKey;
  try {
    key = publicKeyFile !== undefined ? publicKeysFrom(publicKeyFile) : verifierKeyring();
  } catch (err) {
    return fail(err);
  }
  if (bundleFile !== undefined) {
    if (publicKeyFile === undefined) throw new CliUsageError('--bundle: give the public key to verify it with (--public-key FILE)');
    let value: unknown;
    try {
      value = JSON.parse(fs.readFileSync(path.resolve(bundleFile), 'utf8'));
    } catch (err) {
      process.stderr.write(`audit: cannot read the bundle ${bundleFile}: ${(err as Error).message}\n`);
      return 2;
    }
    return report(verifyBundle(value, key), '; bundle verified with the public key alone');
  }
  const db = await openMigratedDatabase();
  try {
    const witnessFile = stringFlag(args, 'witness');
    let witness: WitnessAnchor | undefined;
    if (witnessFile !== undefined) {
      try {
        witness = await witnessForDatabase(db.prisma, path.resolve(witnessFile));
      } catch (err) {
        return fail(err);
      }
    }
    const r = await verifyStoredChain(db.prisma, key, { witness });
    const suffix = `${witness ? `; not older than the witness (${witness.count} chain(s))` : ''}${publicKeyFile !== undefined ? '; verified with the public key alone' : ''}`;
    return report(r, suffix);
  } finally {
    await db.close();
  }
}

async function exportBundle(args: ReturnType<typeof parseArgs>): Promise<number> {
  const runId = stringFlag(args, 'run');
  if (!runId) throw new CliUsageError('--run: name the run whose evidence to export');
  const tenant = TenantSchema.safeParse(stringFlag(args, 'tenant'));
  if (!tenant.success) throw new CliUsageError(`--tenant: ${tenant.error.issues[0]?.message ?? 'name the run\'s tenant'}`);
  const db = await openMigratedDatabase();
  try {
    await actingUserId(db.prisma, stringFlag(args, 'as'), tenant.data, 'reviewer', 'exports the evidence');
    let bundle;
    try {
      bundle = await evidenceBundleOfRun(db.prisma, tenant.data, runId);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      process.stderr.write(`audit: run ${runId} not found in tenant ${tenant.data}\n`);
      return 1;
    }
    const text = JSON.stringify(bundle, null, 2) + '\n';
    const out = stringFlag(args, 'out');
    if (out === undefined) process.stdout.write(text);
    else {
      fs.writeFileSync(path.resolve(out), text);
      process.stderr.write(`audit: wrote the evidence bundle of run ${runId} (${bundle.events.length} events) to ${out}\n`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

export const command: CliCommand = {
  name: 'audit',
  summary: 'verify the governance evidence chain; print the public key; export a run\'s evidence bundle',
  usage:
    'audit verify [--witness FILE] [--public-key FILE] | audit verify --bundle FILE --public-key FILE | audit public-key | audit rotate-key | audit export --run ID --tenant T --as EMAIL [--out FILE]   (DATABASE_URL, or .data/stockroom.db)',
  flags: FLAGS,
  async run(argv) {
    const args = parseArgs(argv, FLAGS);
    const [sub, ...rest] = args.positionals;
    if (rest.length > 0) throw new CliUsageError(`unexpected ${rest.join(' ')}`);
    if (sub === 'verify') return verify(args);
    if (sub === 'export') return exportBundle(args);
    if (sub === 'public-key') {
      try {
        const keys = loadSigningKeys({ create: false });
        if (!keys) throw new GovernanceError('evidence_key', 'no evidence signing key yet (the server creates it on first use; STOCKROOM_EVIDENCE_SIGNING_KEY_FILE)');
        process.stdout.write(publicKeysPem(keys));
        return 0;
      } catch (err) {
        return fail(err);
      }
    }
    if (sub === 'rotate-key') {
      try {
        const r = rotateSigningKey();
        process.stdout.write(`audit: evidence is signed with key ${r.current} from now on${r.previous ? `; key ${r.previous} is kept to verify what it signed` : ''} (${r.file}). Give auditors the new public key (audit public-key).\n`);
        return 0;
      } catch (err) {
        return fail(err);
      }
    }
    throw new CliUsageError("expected 'audit verify', 'audit public-key', 'audit rotate-key' or 'audit export'");
  },
};
