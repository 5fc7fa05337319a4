import 'server-only';
/**
 * The judge's storage, per tenant: recorded judge calls (also the cache a live judge reads before
 * calling its provider) and calibration results. Every read and write names its tenant; another
 * tenant's calibration answers exactly like a missing one.
 */
import type { CalibrationResult } from '../../eval';
import type { JudgeCallRecord, JudgeCallStore } from '../../models';
import { getDb, type Database } from '../core';
import { NotFoundError } from '../core';
import { newId } from '../core';
import { json } from '../runs';

/** Judge calls of one tenant in the database: recorded as made, and looked up by judge and request digest. */
export class PrismaJudgeCallStore implements JudgeCallStore {
  constructor(
    private readonly tenant: string,
    private readonly db: Database = getDb(),
  ) {}

  async get(judge: string, requestDigest: string): Promise<JudgeCallRecord | null> {
    const row = await this.db.prisma.judgeCall.findUnique({ where: { tenant_judge_requestDigest: { tenant: this.tenant, judge, requestDigest } } });
    if (!row) return null;
    return {
      judge: row.judge,
      requestDigest: row.requestDigest,
      request: json(row.request, 'judge request'),
      response: json(row.response, 'judge response') as JudgeCallRecord['response'],
      raw: row.raw === null ? null : json(row.raw, 'judge provider response'),
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
    };
  }

  async put(r: JudgeCallRecord): Promise<void> {
    const data = {
      request: JSON.stringify(r.request),
      response: JSON.stringify(r.response),
      raw: r.raw === null ? null : JSON.stringify(r.raw),
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
    };
    // Two processes asking the same item at once both record it; the later answer wins, either is valid.
    await this.db.prisma.judgeCall.upsert({
      where: { tenant_judge_requestDigest: { tenant: this.tenant, judge: r.judge, requestDigest: r.requestDigest } },
      create: { tenant: this.tenant, judge: r.judge, requestDigest: r.requestDigest, ...data },
      update: data,
    });
  }
}

/** A stored calibration, as the judge page lists it. */
export interface CalibrationListItem {
  id: string;
  judge: string;
  rubricVersion: string;
  setName: string;
  setSha256: string;
  items: number;
  scored: number;
  unscored: number;
  agreement: number | null;
  kappa: number | null;
  providerCalls: number;
  createdAt: string;
}

export interface CalibrationDetail extends CalibrationListItem {
  result: CalibrationResult;
}

export interface SaveCalibrationMeta {
  tenant: string;
  createdBy?: string | null;
  /** Calls that reached the provider during this calibration (0 when every verdict came from the cache). */
  providerCalls: number;
}

/** Stores one calibration in its tenant and returns its id. */
export async function saveCalibration(result: CalibrationResult, meta: SaveCalibrationMeta, db: Database = getDb()): Promise<string> {
  const id = newId();
  await db.prisma.judgeCalibration.create({
    data: {
      id,
      tenant: meta.tenant,
      judge: result.judge,
      rubricVersion: result.rubricVersion,
      setName: result.set.name,
      setSha256: result.set.sha256,
      items: result.items.length,
      scored: result.overall.n,
      unscored: result.unscored,
      agreement: result.overall.agreement,
      kappa: result.overall.kappa,
      providerCalls: meta.providerCalls,
      detail: JSON.stringify(result),
      createdBy: meta.createdBy ?? null,
    },
  });
  return id;
}

type Row = Awaited<ReturnType<Database['prisma']['judgeCalibration']['findFirstOrThrow']>>;

function toItem(row: Row): CalibrationListItem {
  return {
    id: row.id,
    judge: row.judge,
    rubricVersion: row.rubricVersion,
    setName: row.setName,
    setSha256: row.setSha256,
    items: row.items,
    scored: row.scored,
    unscored: row.unscored,
    agreement: row.agreement,
    kappa: row.kappa,
    providerCalls: row.providerCalls,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The tenant's calibrations, newest first. */
export async function listCalibrations(tenant: string, db: Database = getDb(), limit = 50): Promise<CalibrationListItem[]> {
  const rows = await db.prisma.judgeCalibration.findMany({ where: { tenant }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  return rows.map(toItem);
}

/** One calibration of the tenant with every item's verdicts; NotFoundError for a missing one or another tenant's. */
export async function getCalibrationOrThrow(id: string, tenant: string, db: Database = getDb()): Promise<CalibrationDetail> {
  const row = await db.prisma.judgeCalibration.findUnique({ where: { id } });
  if (!row || row.tenant !== tenant) throw new NotFoundError('calibration', id);
  return { ...toItem(row), result: json(row.detail, 'calibration detail') as unknown as CalibrationResult };
}

/** Recorded judge calls of the tenant (how many the cache holds), for the judge page. */
export async function countJudgeCalls(tenant: string, db: Database = getDb()): Promise<number> {
  return db.prisma.judgeCall.count({ where: { tenant } });
}

