import 'server-only';
/** The two runs the compare page shows, looked up by full or short id within the caller's tenant. */
import { getRunOrThrow } from '@/lib/db/runs/runs-read';
import { InvalidInputError, NotFoundError } from '@/lib/db/core/errors';
import { requireRunInTenant } from '@/lib/db/governance/tenant-scope';
import { resolveRunId } from '@/lib/db/runs/run-lookup';
import type { StoredRun } from '@/lib/db/runs/types';
import type { AlignEntry } from '@/lib/charts/align-runs';
import { alignEntryOf } from '@/lib/charts/align-agents';

/** A full run id from a full id or the short id the pages show; a message naming the side when it cannot be one. */
export async function resolve(id: string | null, side: 'A' | 'B', tenant: string): Promise<{ id: string | null; problem: string | null }> {
  if (!id) return { id: null, problem: null };
  try {
    const full = await resolveRunId(id, side, tenant);
    return full ? { id: full, problem: null } : { id: null, problem: `Run ${side} (${id}) does not exist.` };
  } catch (err) {
    if (err instanceof InvalidInputError) return { id: null, problem: `Run ${side}: ${err.message}.` };
    throw err;
  }
}

export function entriesOf(stored: StoredRun): AlignEntry[] {
  return stored.run.trajectory.map(alignEntryOf);
}

export async function load(id: string | null, tenant: string): Promise<StoredRun | 'missing' | null> {
  if (!id) return null;
  try {
    // Another tenant's run is answered exactly like a missing one.
    await requireRunInTenant(id, tenant);
    // Compare aligns trajectories; the messages each call saw are not needed and dominate long runs.
    return await getRunOrThrow(id, undefined, { modelInputs: false });
  } catch (err) {
    if (err instanceof NotFoundError) return 'missing';
    throw err;
  }
}
