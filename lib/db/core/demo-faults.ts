import 'server-only';
/**
 * Demonstration faults armed in instructor mode (model DemoFault): at most one per tenant, off unless
 * a row exists, and consumed by the one write it fires on. Consuming is a single delete, so two
 * writes racing for the same armed fault cannot both fire it.
 */
import { getDb, type Database } from './client';

/**
 * The faults instructor mode can arm. `write_timeout`: the next write's answer is dropped.
 * `worker_kill_<step>`: the worker that runs the tenant's next governed write is killed (SIGKILL) right
 * after that step of the write is stored (prepared, dispatched, or the downstream write done), so
 * another worker takes the resume over; only a job worker fires it (never the web server).
 */
export const DEMO_FAULT_KINDS = ['write_timeout', 'worker_kill_prepared', 'worker_kill_dispatched', 'worker_kill_downstream'] as const;
export type DemoFaultKind = (typeof DEMO_FAULT_KINDS)[number];

export interface ArmedFault {
  tenant: string;
  kind: DemoFaultKind;
  armedBy: string;
  armedAt: string;
}

type Row = { tenant: string; kind: string; armedBy: string; armedAt: Date };
const toDto = (r: Row): ArmedFault => ({ tenant: r.tenant, kind: r.kind as DemoFaultKind, armedBy: r.armedBy, armedAt: r.armedAt.toISOString() });

/** The fault armed in `tenant`, or null. */
export async function armedFault(tenant: string, db: Database = getDb()): Promise<ArmedFault | null> {
  const row = await db.prisma.demoFault.findUnique({ where: { tenant } });
  return row ? toDto(row) : null;
}

/** Arms `kind` in `tenant` (replacing whatever was armed there), attributed to the user id `by`. */
export async function armFault(tenant: string, kind: DemoFaultKind, by: string, db: Database = getDb()): Promise<ArmedFault> {
  const row = await db.prisma.demoFault.upsert({
    where: { tenant },
    create: { tenant, kind, armedBy: by, armedAt: new Date() },
    update: { kind, armedBy: by, armedAt: new Date() },
  });
  return toDto(row);
}

/** Disarms the tenant's fault; true when one was armed. */
export async function disarmFault(tenant: string, db: Database = getDb()): Promise<boolean> {
  const { count } = await db.prisma.demoFault.deleteMany({ where: { tenant } });
  return count > 0;
}

/**
 * Takes the tenant's armed `kind` fault for one write: returns it and deletes it, or null when none
 * is armed (or another write took it first).
 */
export async function takeFault(tenant: string, kind: DemoFaultKind, db: Database = getDb()): Promise<ArmedFault | null> {
  const row = await db.prisma.demoFault.findUnique({ where: { tenant } });
  if (!row || row.kind !== kind) return null;
  const { count } = await db.prisma.demoFault.deleteMany({ where: { tenant, kind, armedAt: row.armedAt, armedBy: row.armedBy } });
  return count === 1 ? toDto(row) : null;
}
