/** Two runs side by side, aligned by harness step, with every difference highlighted. Server-rendered: nothing here is interactive. */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { findSameCaseRun } from '@/lib/db/runs/run-lookup';
import { datasetOptions } from '@/lib/runs/datasets';
import { alignRuns } from '@/lib/charts/align-runs';
import { agentSideOf, alignByAgent, hasSeveralAgents } from '@/lib/charts/align-agents';
import { compareSettingOf, replayedSide } from '@/lib/charts/compare-view';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { labelsOfRun } from '@/lib/db/review/labels';
import { scoresOfRun } from '@/lib/db/review/run-scores';
import { compareScores } from '@/lib/charts/score-compare';
import { RunHeader } from './_components/run-header';
import { RunPicker } from './_components/run-picker';
import { StepTable } from './_components/step-table';
import { AnswerDiff } from './_components/answer-diff';
import { AgentCompare } from './_components/agent-compare';
import { SameCasePanel } from './_components/same-case-panel';
import { entriesOf, load, resolve } from './load-compare';

export const dynamic = 'force-dynamic';

const idOf = (v: unknown) => {
  const parsed = StoredIdSchema.safeParse(Array.isArray(v) ? v[0] : v);
  return parsed.success ? parsed.data : null;
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || null;

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const params = await searchParams;
  const [ra, rb] = await Promise.all([resolve(idOf(params.a), 'A', user.tenant), resolve(idOf(params.b), 'B', user.tenant)]);
  const withSetting = compareSettingOf(first(params.with));
  const q = first(params.q);

  // "Compare with this case under <setting>": the newest stored run of A's case under that setting.
  let missingSameCase: { caseId: string; datasetId: string | null; transport: string } | null = null;
  if (ra.id && !rb.id && withSetting) {
    const other = await findSameCaseRun(ra.id, withSetting, user.tenant);
    if (other) redirect(`/compare?a=${ra.id}&b=${other}`);
  }
  const [a, b] = await Promise.all([load(ra.id, user.tenant), load(rb.id, user.tenant)]);
  const problem = ra.problem ?? rb.problem ?? (a === 'missing' ? 'Run A does not exist.' : b === 'missing' ? 'Run B does not exist.' : null);
  if (a && a !== 'missing' && !b && withSetting && a.run.caseId) {
    const datasetId = datasetOptions(user.tenant).find((d) => d.name === a.meta.datasetName)?.id ?? null;
    missingSameCase = { caseId: a.run.caseId, datasetId, transport: a.meta.transport };
  }

  if (!a || !b || a === 'missing' || b === 'missing') {
    const anchor = a && a !== 'missing' ? a : null;
    return (
      <main className="page">
        <h1>Compare two runs</h1>
        <p className="lede">Pick two runs — for example the same golden case with and without a weakness flag — to see where they diverge.</p>
        {anchor?.run.caseId ? <SameCasePanel anchor={anchor} withSetting={withSetting} missingSameCase={missingSameCase} /> : null}
        <RunPicker a={a && a !== 'missing' ? a.id : ra.id} b={rb.id} q={q} problem={problem} tenant={user.tenant} />
      </main>
    );
  }

  const alignment = alignRuns(
    { entries: entriesOf(a), terminationReason: a.run.terminationReason, finalAnswer: a.run.finalAnswer },
    { entries: entriesOf(b), terminationReason: b.run.terminationReason, finalAnswer: b.run.finalAnswer },
  );

  // Runs of several agents: agent by agent, aligned by agent path.
  const byAgent =
    hasSeveralAgents(a.run) || hasSeveralAgents(b.run)
      ? alignByAgent(agentSideOf(a.run), agentSideOf(b.run))
      : null;
  const [labelsA, labelsB, scoresA, scoresB] = await Promise.all([labelsOfRun(user.tenant, a.id), labelsOfRun(user.tenant, b.id), scoresOfRun(user.tenant, a.id), scoresOfRun(user.tenant, b.id)]);
  const scoreRows = compareScores(scoresA, scoresB);
  // A replay of a recorded run that left its recording: the step where it did, and what differed.
  const replayed = replayedSide(a.run.trajectory, b.run.trajectory);

  return (
    <main className="page">
      <h1>Compare two runs</h1>
      {replayed ? (
        <section className="alert info" role="note" aria-label="Divergence" data-testid="divergence">
          <strong>
            Run {replayed.side} diverged from the recording at <a href={`#step-${replayed.d.step}`}>step {replayed.d.step}</a>
            {replayed.d.continuedLive ? ' and continued live from there' : ''}.
          </strong>{' '}
          What the harness asked differed: <span className="mono">{replayed.d.detail}</span>
        </section>
      ) : null}
      <p className="lede" data-testid="compare-summary">
        {alignment.differentSteps === 0 ? 'The runs took the same steps.' : `${alignment.differentSteps} step(s) differ.`}{' '}
        {alignment.terminationDiffers ? (
          <strong className="delta worse">
            Termination differs: {a.run.terminationReason} vs {b.run.terminationReason}.
          </strong>
        ) : (
          <>Both ended {a.run.terminationReason}.</>
        )}{' '}
        {alignment.answerDiffers ? 'The final answers differ.' : 'The final answers are the same.'}{' '}
        <Link href={`/compare?a=${b.id}&b=${a.id}`}>Swap</Link>
      </p>
      <div className="grid-2">
        <RunHeader label="A" stored={a} labels={labelsA} />
        <RunHeader label="B" stored={b} labels={labelsB} />
      </div>
      {scoreRows.length > 0 ? (
        <section className="panel" aria-labelledby="compare-scores-heading">
          <h2 id="compare-scores-heading">Evaluator scores</h2>
          <table className="data" data-testid="compare-scores">
            <thead>
              <tr>
                <th>Evaluator</th>
                <th className="num">A</th>
                <th className="num">B</th>
                <th className="num">B − A</th>
              </tr>
            </thead>
            <tbody>
              {scoreRows.map((r) => (
                <tr key={r.evaluator}>
                  <td>{r.evaluator}</td>
                  <td className="num">{r.a === null ? '—' : r.a.toFixed(2)}</td>
                  <td className="num">{r.b === null ? '—' : r.b.toFixed(2)}</td>
                  <td className="num">{r.delta === null ? '—' : (r.delta > 0 ? '+' : '') + r.delta.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <AnswerDiff answerA={a.run.finalAnswer} answerB={b.run.finalAnswer} differs={alignment.answerDiffers} />
      {byAgent ? (
        <AgentCompare byAgent={byAgent} />
      ) : (
        <StepTable alignment={alignment} idPrefix="step-" testId="compare-table" replayedStep={replayed?.d.step ?? null} />
      )}
    </main>
  );
}
