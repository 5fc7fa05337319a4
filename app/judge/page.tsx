/**
 * The Judge page: how well each judge agrees with the human labels of the course's calibration set
 * (agreement and Cohen's kappa, overall and per rubric), newest first, and one calibration's items
 * with the judge's verdicts beside the labels. Reads only the caller's tenant; admins may run a
 * calibration from here (the CLI's `judge calibrate` stores the same results).
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { countJudgeCalls, getCalibrationOrThrow, listCalibrations, type CalibrationDetail } from '@/lib/db/judge';
import { NotFoundError } from '@/lib/db/errors';
import type { AgreementStats } from '@/lib/eval/agreement';
import { isScored, type JudgeOutcome } from '@/lib/eval/judge';
import { JudgePageQuerySchema } from '@/lib/schemas/judge';
import { RunCalibrationForm } from './_components/run-calibration-form';
import { calibrationSetStatus } from '@/lib/eval/calibration';
import { isLabelsSet, MIN_CALIBRATION_LABELS } from '@/lib/eval/label-calibration';
import { labelCalibrationSource } from '@/lib/runs/label-calibration';
import { pickableProviders } from '@/lib/runs/model-choice';

export const dynamic = 'force-dynamic';

const fmt = (v: number | null) => (v === null ? '—' : String(v));

function Outcome({ o }: { o: JudgeOutcome }) {
  if (!isScored(o)) return <span className="badge warn" title={o.detail}>unscored ({o.unscored})</span>;
  return (
    <span title={o.rationale}>
      <span className={`badge ${o.passed ? 'good' : 'bad'}`}>{o.passed ? 'pass' : 'fail'}</span> {o.score}
    </span>
  );
}

function StatsRow({ label, s }: { label: string; s: AgreementStats }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td className="num">{fmt(s.agreement)}</td>
      <td className="num">
        {s.kappa === null ? 'undefined' : s.kappa}
        {/* Calibrations stored before issue 35 have no interval. */}
        {s.kappaInterval ? <span title={s.kappaInterval.method}>{` [${s.kappaInterval.low}, ${s.kappaInterval.high}]`}</span> : null}
      </td>
      <td className="num">
        {s.agreed}/{s.n}
      </td>
      <td className="num">{s.confusion.tp}</td>
      <td className="num">{s.confusion.fp}</td>
      <td className="num">{s.confusion.fn}</td>
      <td className="num">{s.confusion.tn}</td>
    </tr>
  );
}

function Detail({ c }: { c: CalibrationDetail }) {
  const r = c.result;
  return (
    <section className="panel" aria-labelledby="calibration-detail" data-testid="calibration-detail">
      <h2 id="calibration-detail">
        {c.judge} on {c.setName}
      </h2>
      <p className="small muted">
        rubric {c.rubricVersion} · set sha256 {c.setSha256.slice(0, 12)} · {c.createdAt.replace('T', ' ').slice(0, 19)} · provider calls {c.providerCalls}
      </p>
      <div className="table-wrap">
        <table className="data" data-testid="calibration-figures">
          <thead>
            <tr>
              <th scope="col">Verdict</th>
              <th scope="col" className="num">Agreement</th>
              <th scope="col" className="num">Cohen&apos;s kappa</th>
              <th scope="col" className="num">Agreed</th>
              <th scope="col" className="num">Judge pass, human pass</th>
              <th scope="col" className="num">Judge pass, human fail</th>
              <th scope="col" className="num">Judge fail, human pass</th>
              <th scope="col" className="num">Both fail</th>
            </tr>
          </thead>
          <tbody>
            <StatsRow label="overall (both rubrics)" s={r.overall} />
            <StatsRow label="answer correctness" s={r.correctness} />
            <StatsRow label="faithfulness" s={r.faithfulness} />
          </tbody>
        </table>
      </div>
      <h3>Items</h3>
      <div className="table-wrap">
        <table className="data" data-testid="calibration-items">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Probe</th>
              <th scope="col">Human</th>
              <th scope="col">Judge</th>
              <th scope="col">Correctness</th>
              <th scope="col">Faithfulness</th>
            </tr>
          </thead>
          <tbody>
            {r.items.map((i) => {
              const disagrees = i.verdict !== null && i.verdict !== i.human;
              return (
                <tr key={i.id} data-testid={`calibration-item-${i.id}`} data-disagrees={disagrees ? 'true' : undefined}>
                  <td className="mono">{isLabelsSet(c.setName) ? <Link href={`/runs/${i.id}`}>run {i.id.slice(-8)}</Link> : i.id}</td>
                  <td className="small">{i.probe ?? ''}</td>
                  <td>
                    <span className={`badge ${i.human === 'pass' ? 'good' : 'bad'}`}>{i.human}</span> {i.humanScore}/5
                  </td>
                  <td>
                    {i.verdict === null ? <span className="badge warn">unscored</span> : <span className={`badge ${i.verdict === 'pass' ? 'good' : 'bad'}`}>{i.verdict}</span>}
                    {disagrees ? <strong> disagrees</strong> : null}
                  </td>
                  <td>
                    <Outcome o={i.correctness} />
                  </td>
                  <td>
                    <Outcome o={i.faithfulness} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export default async function JudgePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const query = JudgePageQuerySchema.parse(await searchParams);
  const [calibrations, recordedCalls] = await Promise.all([listCalibrations(user.tenant), countJudgeCalls(user.tenant)]);
  const chosenId = query.id ?? calibrations[0]?.id;
  const detail = chosenId
    ? await getCalibrationOrThrow(chosenId, user.tenant).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      })
    : null;
  const isAdmin = holdsRole(user.memberships, 'admin', user.tenant);
  // Checked before anyone presses a button: without the labelled set a calibration can only fail.
  const set = calibrationSetStatus();
  const labels = await labelCalibrationSource(user.tenant);
  return (
    <main className="page">
      <h1>Judge</h1>
      <p className="lede">
        Answers are graded for correctness and faithfulness (rubric v2) by the deterministic fake judge or a live model (
        <code>--judge PROVIDER:MODEL</code> on eval and matrix). A calibration grades the course&apos;s human-labelled items and reports
        how often the judge agrees with the labels, and Cohen&apos;s kappa, which discounts the agreement chance alone would give. Judge
        calls are recorded ({recordedCalls} in this tenant) and answer the same request again without calling the provider.
      </p>
      <p className="small muted" data-testid="calibration-set">
        Calibrations grade this tenant&apos;s runs labelled pass or fail as a whole ({labels.labelled} now
        {labels.needed > 0 ? `; ${labels.needed} more needed, at least ${MIN_CALIBRATION_LABELS}` : ''})
        {set.ok ? (
          <>
            {' '}
            or the course&apos;s {set.name} ({set.items} human-labelled items)
          </>
        ) : null}
        . From the command line: <code>npm run stockroom -- judge calibrate --labels tenant:{user.tenant}</code>.
      </p>
      {labels.unverified.length > 0 ? (
        <p className="alert warn" role="status" data-testid="labels-unverified">
          {labels.unverified.length} label{labels.unverified.length === 1 ? '' : 's'} left out of calibrations: no longer matching the evidence that recorded
          {labels.unverified.length === 1 ? ' it' : ' them'} (edited in the database; <code>npm run stockroom -- audit verify</code> names each):{' '}
          {labels.unverified.map((l) => `run ${l.runId} (${l.verdict})`).join(', ')}.
        </p>
      ) : null}
      {!set.ok ? (
        <p className="small muted" data-testid="calibration-missing">
          The course&apos;s calibration set is not on this server ({isAdmin ? set.problem : 'the set is not there'}): put the course dataset beside this
          checkout as <code>../shared/stockroom-v1</code> or set <code>STOCKROOM_CALIBRATION_SET</code> to use it too.
        </p>
      ) : null}
      {isAdmin ? (
        <RunCalibrationForm
          providers={pickableProviders()}
          sources={{ labels: { labelled: labels.labelled, needed: labels.needed, min: MIN_CALIBRATION_LABELS }, file: set.ok ? { ok: true, name: set.name, items: set.items } : { ok: false, problem: set.problem } }}
        />
      ) : null}
      {calibrations.length === 0 ? (
        <p className="panel" data-testid="calibrations-empty">
          No calibrations yet.{' '}
          {labels.needed > 0 ? (
            <>
              Label {labels.needed} more run{labels.needed === 1 ? '' : 's'} pass or fail in the <Link href="/label-queue">labelling queue</Link>
              {set.ok ? ', or calibrate on the course’s set' : ''}.
            </>
          ) : (
            <>Run <code>npm run stockroom -- judge calibrate --labels tenant:{user.tenant}</code>{isAdmin ? ' or use the form above' : ''}.</>
          )}
        </p>
      ) : (
        <section className="panel" aria-labelledby="calibrations-heading">
          <h2 id="calibrations-heading">Calibrations</h2>
          <div className="table-wrap">
            <table className="data" data-testid="calibrations-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Judge</th>
                  <th scope="col">Set</th>
                  <th scope="col" className="num">Items</th>
                  <th scope="col" className="num">Unscored</th>
                  <th scope="col" className="num">Agreement</th>
                  <th scope="col" className="num">Cohen&apos;s kappa</th>
                  <th scope="col" className="num">Provider calls</th>
                </tr>
              </thead>
              <tbody>
                {calibrations.map((c) => (
                  <tr key={c.id} aria-current={c.id === detail?.id ? 'true' : undefined}>
                    <td className="nowrap small">
                      <Link href={`/judge?id=${c.id}`}>{c.createdAt.replace('T', ' ').slice(0, 19)}</Link>
                    </td>
                    <td className="mono">{c.judge}</td>
                    <td className="small">{c.setName}</td>
                    <td className="num">{c.items}</td>
                    <td className="num">{c.unscored}</td>
                    <td className="num">{fmt(c.agreement)}</td>
                    <td className="num">{c.kappa === null ? 'undefined' : c.kappa}</td>
                    <td className="num">{c.providerCalls}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {query.id && !detail ? (
        <p className="panel" role="alert">
          That calibration does not exist.
        </p>
      ) : null}
      {detail ? <Detail c={detail} /> : null}
    </main>
  );
}
