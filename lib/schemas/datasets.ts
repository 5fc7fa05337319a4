/**
 * The datasets the UI may run against: the bundled one and the directories listed in
 * STOCKROOM_EXTRA_DATASETS. The browser only ever names a dataset by id; ids are derived here, so a
 * path from a request can never reach the file system.
 */
import { z } from 'zod';

/** The bundled dataset's id. */
export const BUNDLED_DATASET_ID = 'bundled';

/** A dataset id as the browser sends it. */
export const DatasetIdSchema = z
  .string()
  .trim()
  .min(1, 'choose a dataset')
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'not a dataset id');

/** One allowed dataset: its id and where it lives (the directory never leaves the server). */
export interface DatasetEntry {
  id: string;
  dir: string;
}

const ExtraListSchema = z
  .string()
  .optional()
  .transform((raw) =>
    (raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().refine((p) => p.startsWith('/'), 'STOCKROOM_EXTRA_DATASETS entries must be absolute paths')));

function slug(dir: string): string {
  const base = dir.replace(/\/+$/, '').split('/').pop() ?? '';
  const s = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return s || 'dataset';
}

/**
 * The allow-list: `bundled` → `bundledDir`, then each extra directory under the slug of its folder
 * name (`extra-` prefixed, numbered on collision). Throws naming STOCKROOM_EXTRA_DATASETS when an
 * entry is not an absolute path.
 */
export function datasetAllowList(bundledDir: string, extraRaw: string | undefined): DatasetEntry[] {
  const parsed = ExtraListSchema.safeParse(extraRaw);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'STOCKROOM_EXTRA_DATASETS is invalid');
  const entries: DatasetEntry[] = [{ id: BUNDLED_DATASET_ID, dir: bundledDir }];
  for (const dir of parsed.data) {
    if (entries.some((e) => e.dir === dir)) continue;
    let id = `extra-${slug(dir)}`;
    for (let n = 2; entries.some((e) => e.id === id); n++) id = `extra-${slug(dir)}-${n}`;
    entries.push({ id, dir });
  }
  return entries;
}

/** A tenant name as deployments and users write it. */
export const TenantSchema = z
  .string()
  .trim()
  .min(1, 'a tenant name is required')
  .max(64, 'a tenant name has at most 64 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'a tenant name is lower-case letters, digits, - and _');

/** What a dataset may declare about itself in `tenant.json` at its root. */
export const DatasetTenantFileSchema = z.strictObject({ tenant: TenantSchema });

/**
 * The deployment's dataset → tenant assignments, `STOCKROOM_DATASET_TENANTS="<dataset id>=<tenant>,…"`.
 * Throws naming the variable and the bad entry.
 */
export function parseDatasetTenants(raw: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [id, tenant, ...rest] = entry.split('=').map((s) => s.trim());
    const parsedId = DatasetIdSchema.safeParse(id);
    const parsedTenant = TenantSchema.safeParse(tenant);
    if (rest.length || !parsedId.success || !parsedTenant.success) {
      throw new Error(`STOCKROOM_DATASET_TENANTS: '${entry}' is not <dataset id>=<tenant> (${parsedTenant.success ? 'bad dataset id' : (parsedTenant.error.issues[0]?.message ?? 'bad tenant')})`);
    }
    out.set(parsedId.data, parsedTenant.data);
  }
  return out;
}
