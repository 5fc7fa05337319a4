/**
 * Alert rules on the hourly rollup (issue 37), evaluated by the sweep (the job engine's crontab sweep
 * enqueues the watch job, which ends here; the embedded sweep pokes the same job):
 * - error_share: MODEL_ERROR runs over `threshold` of the runs in the last complete hour;
 * - score_drop: an evaluator's mean score over the last 7 days `threshold` or more below the 7 before;
 * - daily_cost: priced runs' cost so far today (UTC) over `threshold` USD.
 * An alert is recorded once per rule and breach window (an hour or a day), then sent through the
 * tenant's notification endpoints (webhooks, email) as `alert.fired`; a sweep finding the same breach
 * again sends nothing.
 */
import { enabledAlertRules, recordAlert, type AlertEventDto, type AlertRuleDto } from '../db/review';
import { getDb, type Database } from '../db/core';
import { rollupRows } from '../db/review';
import { dashboardUrl } from '../mcp';
import { emitEvent, type DeliveryQueue } from '../notify';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Breach {
  window: string;
  value: number;
  threshold: number;
  message: string;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Whether `rule` is breached as of `now`, and for which window. */
export async function breachOf(rule: AlertRuleDto, now: Date, db: Database = getDb()): Promise<Breach | null> {
  const hourStart = Math.floor(now.getTime() / HOUR) * HOUR;
  const dayStart = Math.floor(now.getTime() / DAY) * DAY;
  if (rule.kind === 'error_share') {
    // The last complete hour: an hour still filling would fire on its first few runs.
    const from = new Date(hourStart - HOUR);
    const { hours } = await rollupRows({ tenant: rule.tenant, dim: 'all', from, to: new Date(hourStart) }, db);
    const runs = hours.reduce((n, h) => n + h.runs, 0);
    const errors = hours.filter((h) => h.termination === 'MODEL_ERROR').reduce((n, h) => n + h.runs, 0);
    if (runs === 0 || errors / runs <= rule.threshold) return null;
    return { window: from.toISOString().slice(0, 13), value: errors / runs, threshold: rule.threshold, message: `MODEL_ERROR in ${errors} of ${runs} runs (${pct(errors / runs)}) in the hour from ${from.toISOString().slice(11, 16)} UTC, over ${pct(rule.threshold)}.` };
  }
  if (rule.kind === 'daily_cost') {
    const { hours } = await rollupRows({ tenant: rule.tenant, dim: 'all', from: new Date(dayStart), to: new Date(dayStart + DAY) }, db);
    const usd = hours.reduce((n, h) => n + h.costUsd, 0);
    const unpriced = hours.reduce((n, h) => n + h.costUnknownRuns, 0);
    if (usd <= rule.threshold) return null;
    return { window: new Date(dayStart).toISOString().slice(0, 10), value: usd, threshold: rule.threshold, message: `Cost today $${usd.toFixed(4)}, over the cap of $${rule.threshold}${unpriced > 0 ? ` (and ${unpriced} runs without a price, not counted)` : ''}.` };
  }
  // score_drop: the last 7 days against the 7 before.
  const evaluator = rule.evaluator ?? '';
  const { scores } = await rollupRows({ tenant: rule.tenant, dim: 'all', from: new Date(dayStart - 13 * DAY), to: new Date(dayStart + DAY) }, db);
  const split = dayStart - 6 * DAY;
  const mean = (rows: typeof scores) => {
    const count = rows.reduce((n, r) => n + r.count, 0);
    return count > 0 ? rows.reduce((n, r) => n + r.sum, 0) / count : null;
  };
  const mine = scores.filter((s) => s.evaluator === evaluator);
  const current = mean(mine.filter((s) => s.hour.getTime() >= split));
  const previous = mean(mine.filter((s) => s.hour.getTime() < split));
  if (current === null || previous === null || previous - current < rule.threshold) return null;
  return { window: new Date(dayStart).toISOString().slice(0, 10), value: previous - current, threshold: rule.threshold, message: `Mean ${evaluator} score ${current.toFixed(3)} over the last 7 days, down ${(previous - current).toFixed(3)} from ${previous.toFixed(3)} the week before.` };
}

/** Evaluates every tenant's rules; records and sends each new breach. Returns the alerts fired now. */
export async function evaluateAlerts(queue: DeliveryQueue, now: Date = new Date(), db: Database = getDb()): Promise<AlertEventDto[]> {
  const fired: AlertEventDto[] = [];
  for (const rule of await enabledAlertRules(db)) {
    const breach = await breachOf(rule, now, db);
    if (!breach) continue;
    const event = await recordAlert(rule, breach, db, now);
    if (event) fired.push(event);
    // Sent again on every sweep while the breach lasts, but delivered once per endpoint: the delivery's
    // key is the rule and window (a sweep that recorded the alert and then died still sends it).
    await emitEvent(db.prisma, queue, {
      type: 'alert.fired',
      subject: `${rule.id}:${breach.window}`,
      audience: null,
      at: now,
      data: {
        tenant: rule.tenant,
        runId: '',
        requestId: null,
        tool: null,
        rule: rule.name,
        message: breach.message,
        approverRole: null,
        quorum: null,
        approvals: null,
        status: 'fired',
        expiresAt: null,
        verdict: null,
        terminationReason: null,
        escalatedTo: null,
        link: `${dashboardUrl()}/alerts`,
        alert: { rule: rule.name, kind: rule.kind, window: breach.window, value: breach.value, threshold: breach.threshold },
      },
    });
  }
  return fired;
}
