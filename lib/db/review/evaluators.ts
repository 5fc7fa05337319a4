import 'server-only';
/**
 * A tenant's online evaluators (issue 37). Saving an evaluator under a name it already has stores its
 * next version; scores keep the version they were given under. Another tenant's evaluator is not found.
 */
import { safeJsonParse } from '../../harness';
import { EvaluatorConfigSchema, EvaluatorFilterSchema, MAX_EVALUATORS, type EvaluatorConfig, type EvaluatorFilter, type EvaluatorKind } from '../../eval';
import { getDb, type Database } from '../core';
import { InvalidInputError } from '../core';
import { newId } from '../core';

export interface EvaluatorDto {
  id: string;
  tenant: string;
  name: string;
  version: number;
  kind: EvaluatorKind;
  config: EvaluatorConfig;
  filter: EvaluatorFilter;
  enabled: boolean;
  updatedAt: string;
}

export interface EvaluatorSpec {
  name: string;
  kind: EvaluatorKind;
  enabled: boolean;
  config: EvaluatorConfig;
  filter: EvaluatorFilter;
}

type Row = { id: string; tenant: string; name: string; version: number; kind: string; config: string; filter: string; enabled: boolean; updatedAt: Date };

function toDto(r: Row): EvaluatorDto {
  const config = safeJsonParse(r.config);
  const filter = safeJsonParse(r.filter);
  return {
    id: r.id,
    tenant: r.tenant,
    name: r.name,
    version: r.version,
    kind: r.kind as EvaluatorKind,
    config: (config.ok && EvaluatorConfigSchema.safeParse(config.value).data) || {},
    filter: (filter.ok && EvaluatorFilterSchema.safeParse(filter.value).data) || {},
    enabled: r.enabled,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** The tenant's evaluators, by name. */
export async function listEvaluators(tenant: string, db: Database = getDb()): Promise<EvaluatorDto[]> {
  return (await db.prisma.evaluator.findMany({ where: { tenant }, orderBy: { name: 'asc' } })).map(toDto);
}

/** Every tenant's enabled evaluators, by tenant (the watch job scores a batch of runs of many tenants). */
export async function enabledEvaluatorsOf(tenants: readonly string[], db: Database = getDb()): Promise<Map<string, EvaluatorDto[]>> {
  const rows = await db.prisma.evaluator.findMany({ where: { tenant: { in: [...tenants] }, enabled: true }, orderBy: { name: 'asc' } });
  const out = new Map<string, EvaluatorDto[]>();
  for (const r of rows) out.set(r.tenant, [...(out.get(r.tenant) ?? []), toDto(r)]);
  return out;
}

/** Creates the evaluator, or stores the next version of the tenant's evaluator of that name. */
export async function saveEvaluator(tenant: string, spec: EvaluatorSpec, by: string | null, db: Database = getDb(), now: Date = new Date()): Promise<EvaluatorDto> {
  const existing = await db.prisma.evaluator.findUnique({ where: { tenant_name: { tenant, name: spec.name } } });
  const data = { kind: spec.kind, enabled: spec.enabled, config: JSON.stringify(spec.config), filter: JSON.stringify(spec.filter), updatedAt: now };
  if (existing) return toDto(await db.prisma.evaluator.update({ where: { id: existing.id }, data: { ...data, version: existing.version + 1 } }));
  if ((await db.prisma.evaluator.count({ where: { tenant } })) >= MAX_EVALUATORS) throw new InvalidInputError('name', `a tenant has at most ${MAX_EVALUATORS} evaluators; remove one first`);
  return toDto(await db.prisma.evaluator.create({ data: { ...data, id: newId(), tenant, name: spec.name, version: 1, createdBy: by, createdAt: now } }));
}

/** Removes the tenant's evaluator (its scores stay, under its name and version). False: no such evaluator in this tenant. */
export async function removeEvaluator(tenant: string, id: string, db: Database = getDb()): Promise<boolean> {
  return (await db.prisma.evaluator.deleteMany({ where: { tenant, id } })).count > 0;
}
