/**
 * The Judge page: how well each judge agrees with the human labels of the course's calibration set
 * (agreement and Cohen's kappa, overall and per rubric), newest first, and one calibration's items
 * with the judge's verdicts beside the labels. Reads only the caller's tenant; admins may run a
 * calibration from here (the CLI's `judge calibrate` stores the same results).
 */
import Link from 'next/link';
import { holdsRole } from '@/lib/auth/authorize';
import { requireUser } from '@/lib/auth/page-guard';
import { countJudgeCalls, getCalibrationOrThrow, listCalibrations } from '@/lib/db/review/judge';
import { NotFoundError } from '@/lib/db/core/errors';
import { judgeDisagreements, JUDGE_PASS_SCORE } from '@/lib/db/review/run-scores';
import { JudgePageQuerySchema } from '@/lib/schemas/judge';
import { RunCalibrationForm } from './_components/run-calibration-form';
import { CalibrationDetail } from './_components/calibration-detail';
import { CalibrationsTable } from './_components/calibrations-table';
import { calibrationSetStatus } from '@/lib/eval/calibration';
import { MIN_CALIBRATION_LABELS } from '@/lib/eval/label-calibration';
import { labelCalibrationSource } from '@/lib/runs/label-calibration';
import { pickableProviders } from '@/lib/runs/model-choice';

export const dynamic = 'force-dynamic';

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
  const [labels, disagreements] = await Promise.all([labelCalibrationSource(user.tenant), judgeDisagreements(user.tenant)]);
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
        <CalibrationsTable calibrations={calibrations} currentId={detail?.id} />
      )}
      {query.id && !detail ? (
        <p className="panel" role="alert">
          That calibration does not exist.
        </p>
      ) : null}
      {detail ? <CalibrationDetail c={detail} /> : null}
      <section className="panel" aria-labelledby="disagreements-heading" data-testid="judge-disagreements">
        <h2 id="disagreements-heading">Online judge against reviewers</h2>
        <p className="small muted">
          Runs where an online judge evaluator (<Link href="/evaluators">Evaluators</Link>) and the reviewer’s current verdict on the whole run
          disagree: a pass scored under {JUDGE_PASS_SCORE}, or a fail scored {JUDGE_PASS_SCORE} or more.
        </p>
        {disagreements.length === 0 ? (
          <p data-testid="disagreements-empty">No disagreements.</p>
        ) : (
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th>Run</th>
                  <th>Evaluator</th>
                  <th className="num">Judge score</th>
                  <th>Reviewer’s verdict</th>
                </tr>
              </thead>
              <tbody>
                {disagreements.map((d) => (
                  <tr key={`${d.runId}-${d.evaluatorName}`} data-testid="disagreement-row">
                    <td className="mono">
                      <Link href={`/runs/${d.runId}`}>{d.runId.slice(-8)}</Link>
                    </td>
                    <td>
                      {d.evaluatorName} <span className="muted small">v{d.evaluatorVersion}</span>
                    </td>
                    <td className="num">{d.score.toFixed(2)}</td>
                    <td>
                      {d.verdict} <span className="muted small">by {d.reviewer}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}
