import 'server-only';
/**
 * A tenant's alert rules on the hourly series and the alerts they fired (issue 37). An alert is
 * recorded once per rule and breach window (unique), so a sweep that finds the same breach again
 * records, and sends, nothing more.
 */
import { getDb, type Database } from '../core';
import { newId } from '../core';

export type AlertKind = 'error_share' | 'score_drop' | 'daily_cost';

export interface AlertRuleSpec {
  name: string;
  kind: AlertKind;
  threshold: number;
  evaluator?: string;
}

export interface AlertRuleDto extends AlertRuleSpec {
  id: string;
  tenant: string;
  enabled: boolean;
  createdAt: string;
}

export interface AlertEventDto {
  id: string;
  ruleId: string;
  ruleName: string;
  kind: string;
  window: string;
  value: number;
  threshold: number;
  message: string;
  firedAt: string;
}

type RuleRow = { id: string; tenant: string; name: string; kind: string; threshold: number; evaluator: string | null; enabled: boolean; createdAt: Date };
const ruleDto = (r: RuleRow): AlertRuleDto => ({
  id: r.id,
  tenant: r.tenant,
  name: r.name,
  kind: r.kind as AlertKind,
  threshold: r.threshold,
  ...(r.evaluator ? { evaluator: r.evaluator } : {}),
  enabled: r.enabled,
  createdAt: r.createdAt.toISOString(),
});

/** Creates the rule, or changes the tenant's rule of that name. */
export async function saveAlertRule(tenant: string, spec: AlertRuleSpec, by: string | null, db: Database = getDb(), now: Date = new Date()): Promise<AlertRuleDto> {
  const data = { kind: spec.kind, threshold: spec.threshold, evaluator: spec.evaluator ?? null };
  const row = await db.prisma.alertRule.upsert({
    where: { tenant_name: { tenant, name: spec.name } },
    update: data,
    create: { ...data, id: newId(now.getTime()), tenant, name: spec.name, enabled: true, createdBy: by, createdAt: now },
  });
  return ruleDto(row);
}

export async function listAlertRules(tenant: string, db: Database = getDb()): Promise<AlertRuleDto[]> {
  return (await db.prisma.alertRule.findMany({ where: { tenant }, orderBy: { name: 'asc' } })).map(ruleDto);
}

/** Every tenant's enabled rules (the sweep). */
export async function enabledAlertRules(db: Database = getDb()): Promise<AlertRuleDto[]> {
  return (await db.prisma.alertRule.findMany({ where: { enabled: true }, orderBy: [{ tenant: 'asc' }, { name: 'asc' }] })).map(ruleDto);
}

/** False: no such rule in this tenant. Its fired alerts stay in the history. */
export async function removeAlertRule(tenant: string, id: string, db: Database = getDb()): Promise<boolean> {
  return (await db.prisma.alertRule.deleteMany({ where: { tenant, id } })).count > 0;
}

/**
 * Records that `rule` fired for `window`; null when it already had (the breach window's one alert).
 */
export async function recordAlert(
  rule: Pick<AlertRuleDto, 'id' | 'tenant' | 'name' | 'kind'>,
  fired: { window: string; value: number; threshold: number; message: string },
  db: Database = getDb(),
  now: Date = new Date(),
): Promise<AlertEventDto | null> {
  try {
    const r = await db.prisma.alertEvent.create({ data: { id: newId(now.getTime()), tenant: rule.tenant, ruleId: rule.id, ruleName: rule.name, kind: rule.kind, ...fired, firedAt: now } });
    return { id: r.id, ruleId: r.ruleId, ruleName: r.ruleName, kind: r.kind, window: r.window, value: r.value, threshold: r.threshold, message: r.message, firedAt: r.firedAt.toISOString() };
  } catch (err) {
    // The rule already fired for this window (another sweep, another worker): one alert per breach window.
    if ((err as { code?: unknown }).code === 'P2002') return null;
    throw err;
  }
}

/** The tenant's alert history, newest first. */
export async function listAlertEvents(tenant: string, limit = 200, db: Database = getDb()): Promise<AlertEventDto[]> {
  const rows = await db.prisma.alertEvent.findMany({ where: { tenant }, orderBy: [{ firedAt: 'desc' }, { id: 'desc' }], take: limit });
  return rows.map((r) => ({ id: r.id, ruleId: r.ruleId, ruleName: r.ruleName, kind: r.kind, window: r.window, value: r.value, threshold: r.threshold, message: r.message, firedAt: r.firedAt.toISOString() }));
}
