import 'server-only';
/**
 * Where redaction at rest meets storage (issue 33): the tenant's classes from the policy file (read
 * again when the file changes), and each subject's pseudonym key, made on first use and kept sealed
 * (PseudonymKey). Every writer of content asks here for a redactor before it builds its rows: the
 * run store (runs-write.ts, suite-jobs.ts), the OTLP receiver (otlp-store.ts) and reviewers' labels.
 * A tenant with no redaction gets none, and its content is stored exactly as before.
 */
import fs from 'node:fs';
import {
  currentPolicy,
  DEFAULT_TENANT,
  evidenceBody,
  evidenceKey,
  loadEvidenceKey,
  type LoadedPolicy,
  newPseudonymKey,
  policyFilePath,
  type RedactionPolicy,
  redactsAnything,
  Redactor,
  sealPseudonymKey,
  tenantRedaction,
  unsealPseudonymKey,
  type Redaction,
} from '../../governance';
import { safeJsonParse } from '../../harness';
import type { Database } from '../core';
import { appendEvidenceIn, storedBeforeWhere, withEvidenceTx, type Tx } from './governance-evidence';

type Client = Database['prisma'] | Tx;

const cache = globalThis as unknown as {
  __stockroomRedactionPolicy?: { file: string; mtimeMs: number; size: number; policy: LoadedPolicy };
  __stockroomPseudonymRoot?: Buffer;
  /** Per database client and tenant, the classes this process knows are recorded in the evidence. */
  __stockroomRedactionNoted?: WeakMap<object, Map<string, string>>;
};

/** What a tenant keeps out, as recorded: its classes, then its patterns' names (sorted). */
const classesOf = (policy: RedactionPolicy | undefined): string[] => (policy ? [...[...policy.classes].sort(), ...policy.patterns.map((p) => p.name).sort()] : []);

/** The newest `redaction_classes` event of `tenant`: the classes it recorded, or null when there is none. */
export async function recordedClasses(client: Client, tenant: string): Promise<{ classes: string[]; at: string } | null> {
  const rows = await client.evidenceEvent.findMany({ where: { chain: 'global', body: { contains: '"kind":"redaction_classes"' } }, select: { body: true }, orderBy: { seq: 'desc' } });
  for (const r of rows) {
    const body = JSON.parse(r.body) as { kind?: string; rule?: string; redactions?: string[]; at?: string };
    if (body.kind === 'redaction_classes' && body.rule === tenant) return { classes: body.redactions ?? [], at: body.at ?? '' };
  }
  return null;
}

/**
 * Records in the evidence when a tenant's redaction classes change (issue 33): content stored before
 * a class applied holds it as it came, and `audit verify` says since when each tenant's classes apply.
 * Once per process, client and classes: the evidence is read, and an event appended only when the
 * newest one recorded differs (a tenant that never redacted records nothing). Two processes noting
 * the same change at once may both append; the newest stands.
 */
async function noteClasses(client: Client, tenant: string, policy: RedactionPolicy | undefined): Promise<void> {
  const classes = classesOf(policy);
  const signature = classes.join(',');
  const noted = (cache.__stockroomRedactionNoted ??= new WeakMap());
  const byTenant = noted.get(client) ?? new Map<string, string>();
  noted.set(client, byTenant);
  if (byTenant.get(tenant) === signature) return;
  const recorded = await recordedClasses(client, tenant);
  if ((recorded ? recorded.classes.join(',') : '') !== signature) {
    const body = evidenceBody({
      kind: 'redaction_classes',
      at: new Date().toISOString(),
      rule: tenant,
      redactions: classes,
      policyVersion: policy ? currentPolicy().version : null,
      detail: classes.length ? `tenant ${tenant} keeps ${classes.join(', ')} out of content stored from now on` : `tenant ${tenant} keeps nothing out of content stored from now on`,
    });
    const key = evidenceKey();
    if ('$transaction' in client) await withEvidenceTx(client, (tx) => appendEvidenceIn(tx, key, body));
    else await appendEvidenceIn(client, key, body);
  }
  byTenant.set(tenant, signature);
}

/**
 * What the governance page says of a tenant's redaction at rest: the classes recorded as in force,
 * since when, and how many of its runs predate them; null when the tenant never kept anything out.
 */
export async function redactionStatus(client: Client, tenant: string): Promise<{ classes: string[]; since: string; storedBefore: number } | null> {
  const recorded = await recordedClasses(client, tenant);
  if (!recorded) return null;
  return { classes: recorded.classes, since: recorded.at, storedBefore: await client.run.count({ where: storedBeforeWhere(tenant, new Date(recorded.at)) }) };
}

/**
 * The tenant's current redaction classes as the evidence records them, and since when they apply
 * (recorded now when the policy file changed them); null when the tenant never kept anything out.
 */
export async function classesInForce(client: Client, tenant: string): Promise<{ classes: string[]; at: string } | null> {
  await noteClasses(client, tenant, tenantRedactionPolicy(tenant));
  return recordedClasses(client, tenant);
}

/**
 * The tenant's redaction (undefined: none, or no policy file). The policy is parsed again only when
 * its file changes, so a stored run does not pay for reading it; a policy that does not parse is refused.
 */
export function tenantRedactionPolicy(tenant: string): RedactionPolicy | undefined {
  const file = policyFilePath();
  let stat: fs.Stats;
  try {
    stat = fs.statSync(/* turbopackIgnore: true */ file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const held = cache.__stockroomRedactionPolicy;
  let loaded: LoadedPolicy;
  if (held && held.file === file && held.mtimeMs === stat.mtimeMs && held.size === stat.size) {
    loaded = held.policy;
  } else {
    try {
      loaded = (cache.__stockroomRedactionPolicy = { file, mtimeMs: stat.mtimeMs, size: stat.size, policy: currentPolicy() }).policy;
    } catch (err) {
      // An edit that broke the file does not weaken what is kept out of storage: the classes of the
      // last good version of this file still apply (and the file is read again next time). Never
      // read one: nothing can be stored safely, so the error stands.
      if (!held || held.file !== file) throw err;
      loaded = held.policy;
    }
  }
  const policy = tenantRedaction(loaded.document, tenant);
  return redactsAnything(policy) ? policy : undefined;
}

/**
 * The key pseudonym keys and sealed governed-run content are sealed under (each purpose derives its
 * own key from it: sealing.ts); it is the evidence key, which is not in the database.
 */
export function rootKey(): Buffer {
  cache.__stockroomPseudonymRoot ??= loadEvidenceKey();
  return cache.__stockroomPseudonymRoot;
}

/**
 * Whose key a run's values are pseudonymised under: the imported trace's user.id, else the dashboard
 * user it acts for, else its session id, else '' (the tenant's own key). Erasing that subject destroys it.
 */
export function subjectOf(meta: SubjectIds): string {
  return meta.traceUserId || meta.createdBy || meta.sessionId || '';
}

/** The subject's pseudonym key in the tenant, made (and sealed) on first use. */
export async function pseudonymKey(client: Client, tenant: string, subject: string): Promise<Buffer> {
  const where = { tenant_subject: { tenant, subject } };
  const found = await client.pseudonymKey.findUnique({ where, select: { sealed: true } });
  if (found) return unsealPseudonymKey(found.sealed, rootKey());
  const key = newPseudonymKey();
  const sealed = sealPseudonymKey(key, rootKey());
  // Two writers making the same subject's key at once: the first one's stands and both use it.
  const row = await client.pseudonymKey.upsert({ where, create: { tenant, subject, sealed, createdAt: new Date() }, update: {}, select: { sealed: true } });
  return row.sealed === sealed ? key : unsealPseudonymKey(row.sealed, rootKey());
}

/** Destroys the subject's pseudonym key in the tenant (crypto-shredding); whether there was one. */
export async function destroyPseudonymKey(client: Client, tenant: string, subject: string): Promise<boolean> {
  return (await client.pseudonymKey.deleteMany({ where: { tenant, subject } })).count > 0;
}

/** Who content is about: the ids a run or an imported trace carries. */
export interface SubjectIds {
  createdBy?: string | null;
  sessionId?: string | null;
  traceUserId?: string | null;
}

const idsOf = (meta: SubjectIds) => [meta.createdBy, meta.sessionId, meta.traceUserId].filter((v): v is string => typeof v === 'string');

/** A redactor for content of the subject `ids` name in `tenant`, or null when the tenant redacts nothing. */
export async function redactorFor(client: Client, tenant: string, ids: SubjectIds): Promise<Redactor | null> {
  const policy = tenantRedactionPolicy(tenant);
  await noteClasses(client, tenant, policy);
  if (!policy) return null;
  return new Redactor(policy, policy.pseudonymise ? await pseudonymKey(client, tenant, subjectOf(ids)) : null, idsOf(ids));
}

/** One redactor per run to store (null: its tenant redacts nothing), keys looked up once per subject. */
export async function runRedactors(
  client: Client,
  metas: ReadonlyArray<SubjectIds & { tenant?: string }>,
): Promise<Array<Redactor | null>> {
  const keys = new Map<string, Promise<Buffer>>();
  // Each tenant's policy read once a call: a batch is mostly one tenant's runs (an OTLP request's 100).
  const policies = new Map<string, RedactionPolicy | undefined>();
  const out: Array<Redactor | null> = [];
  for (const meta of metas) {
    const tenant = meta.tenant ?? DEFAULT_TENANT;
    let policy: RedactionPolicy | undefined;
    if (policies.has(tenant)) policy = policies.get(tenant);
    else {
      policy = tenantRedactionPolicy(tenant);
      policies.set(tenant, policy);
      await noteClasses(client, tenant, policy);
    }
    if (!policy) {
      out.push(null);
      continue;
    }
    let key: Buffer | null = null;
    if (policy.pseudonymise) {
      const subject = subjectOf(meta);
      const id = `${tenant}\u0000${subject}`;
      if (!keys.has(id)) keys.set(id, pseudonymKey(client, tenant, subject));
      key = await keys.get(id)!;
    }
    out.push(new Redactor(policy, key, idsOf(meta)));
  }
  return out;
}

/** Where a reviewer's label comment's redactions are listed on its run (labels.ts): kept when the run is stored again. */
export const LABEL_COMMENT = 'label comment';

/**
 * Run `runId`'s stored redactions list inside the caller's transaction, the row locked until it
 * commits on PostgreSQL (SQLite has one writer at a time): the two writers that merge into it, a
 * label (labels.ts) and the run stored again (runs-write.ts replaceRun), then never lose each other's entries.
 */
export async function lockedRunRedactions(tx: Client, provider: Database['provider'], runId: string): Promise<string | null> {
  const rows =
    provider === 'postgres'
      ? await tx.$queryRaw<{ redactions: string | null }[]>`SELECT "redactions" FROM "Run" WHERE "id" = ${runId} FOR UPDATE`
      : await tx.$queryRaw<{ redactions: string | null }[]>`SELECT "redactions" FROM "Run" WHERE "id" = ${runId}`;
  return rows[0]?.redactions ?? null;
}

/** A run's (or record's) `redactions` column read back ([] when none or unreadable: it lists, it never holds values). */
export function storedRedactions(text: string | null): Redaction[] {
  if (!text) return [];
  const parsed = safeJsonParse(text);
  if (!parsed.ok || !Array.isArray(parsed.value)) return [];
  return (parsed.value as unknown[]).filter((r): r is Redaction => {
    const o = r as Partial<Redaction> | null;
    return !!o && typeof o === 'object' && typeof o.class === 'string' && typeof o.count === 'number' && typeof o.where === 'string';
  });
}

/** The entries of a stored redactions list that reviewers' label comments put there. */
export const labelRedactions = (stored: string | null): Redaction[] => storedRedactions(stored).filter((r) => r.where === LABEL_COMMENT);

/** A redactions list as stored (null: nothing was taken out). */
export const redactionsText = (list: readonly Redaction[]): string | null => (list.length > 0 ? JSON.stringify(list) : null);

/** Merges `more` into a stored redactions list (same class and place: counts add up). */
export function mergeRedactions(stored: string | null, more: readonly Redaction[]): string | null {
  const list: Redaction[] = storedRedactions(stored).map((r) => ({ ...r }));
  for (const r of more) {
    const same = list.find((x) => x.class === r.class && x.where === r.where);
    if (same) same.count += r.count;
    else list.push({ ...r });
  }
  return redactionsText(list);
}
