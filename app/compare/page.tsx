/** Two runs side by side, aligned by harness step, with every difference highlighted. Server-rendered: nothing here is interactive. */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getRunOrThrow } from '@/lib/db/runs-read';
import { InvalidInputError, NotFoundError } from '@/lib/db/errors';
import { requireRunInTenant } from '@/lib/db/tenant-scope';
import { findSameCaseRun, resolveRunId } from '@/lib/db/run-lookup';
import { datasetOptions } from '@/lib/runs/datasets';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '@/lib/harness/config';
import { answerColumns } from '@/lib/charts/answer-diff';
import { RunSameCase } from './_components/run-same-case';
import { RunHeader } from './_components/run-header';
import { RunPicker } from './_components/run-picker';
import { StepTable } from './_components/step-table';
import type { StoredRun } from '@/lib/db/types';
import { alignRuns, type AlignEntry } from '@/lib/charts/align-runs';
import { agentSideOf, alignByAgent, alignEntryOf, hasSeveralAgents } from '@/lib/charts/align-agents';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { labelsOfRun } from '@/lib/db/labels';
import { divergenceOf } from '@/lib/charts/divergence';

export const dynamic = 'force-dynamic';

const idOf = (v: unknown) => {
  const parsed = StoredIdSchema.safeParse(Array.isArray(v) ? v[0] : v);
  return parsed.success ? parsed.data : null;
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || null;

/** The settings one can compare a case under: no weakness and each flag alone. */
const SETTINGS = ['none', ...WEAKNESS_FLAGS] as const;
const settingOf = (v: string | null) => (v && (SETTINGS as readonly string[]).includes(v) ? v : null);

/** A full run id from a full id or the short id the pages show; a message naming the side when it cannot be one. */
async function resolve(id: string | null, side: 'A' | 'B', tenant: string): Promise<{ id: string | null; problem: string | null }> {
  if (!id) return { id: null, problem: null };
  try {
    const full = await resolveRunId(id, side, tenant);
    return full ? { id: full, problem: null } : { id: null, problem: `Run ${side} (${id}) does not exist.` };
  } catch (err) {
    if (err instanceof InvalidInputError) return { id: null, problem: `Run ${side}: ${err.message}.` };
    throw err;
  }
}

function entriesOf(stored: StoredRun): AlignEntry[] {
  return stored.run.trajectory.map(alignEntryOf);
}

async function load(id: string | null, tenant: string): Promise<StoredRun | 'missing' | null> {
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

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const params = await searchParams;
  const [ra, rb] = await Promise.all([resolve(idOf(params.a), 'A', user.tenant), resolve(idOf(params.b), 'B', user.tenant)]);
  const withSetting = settingOf(first(params.with));
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
        {anchor?.run.caseId ? (
          <section className="panel" aria-label="Same case under another setting" data-testid="same-case">
            <h2 style={{ marginTop: 0 }}>
              Compare run {anchor.id.slice(-8)} ({anchor.run.caseId}, {anchor.meta.setting}) with the same case under…
            </h2>
            <div className="row">
              {SETTINGS.filter((st) => st !== anchor.meta.setting).map((st) => (
                <Link key={st} className="button" href={`/compare?a=${anchor.id}&with=${st}`}>
                  {st === 'none' ? 'no weakness' : st}
                </Link>
              ))}
            </div>
            {missingSameCase && withSetting ? (
              <div className="stack" style={{ marginTop: '0.75rem' }}>
                <p className="alert info" data-testid="no-same-case">
                  No stored run of {missingSameCase.caseId} under {withSetting === 'none' ? 'no weakness' : withSetting} yet.
                </p>
                {missingSameCase.datasetId ? (
                  <RunSameCase
                    a={anchor.id}
                    datasetId={missingSameCase.datasetId}
                    caseId={missingSameCase.caseId}
                    weaknesses={withSetting === 'none' ? [] : (withSetting.split('+') as WeaknessFlag[])}
                    transport={missingSameCase.transport as 'local'}
                    setting={withSetting === 'none' ? 'no weakness' : withSetting}
                  />
                ) : (
                  <p className="muted small">Its dataset ({anchor.meta.datasetName}) is not one this dashboard can run.</p>
                )}
              </div>
            ) : null}
          </section>
        ) : null}
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
  const [labelsA, labelsB] = await Promise.all([labelsOfRun(user.tenant, a.id), labelsOfRun(user.tenant, b.id)]);
  const columns = answerColumns(a.run.finalAnswer, b.run.finalAnswer);
  // A replay of a recorded run that left its recording: the step where it did, and what differed.
  const replayed = divergenceOf(b.run.trajectory) ? { side: 'B', other: 'A', d: divergenceOf(b.run.trajectory)! } : divergenceOf(a.run.trajectory) ? { side: 'A', other: 'B', d: divergenceOf(a.run.trajectory)! } : null;

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
      <section className="panel" aria-label="Final answers" data-testid="answer-diff">
        <h2 style={{ marginTop: 0 }}>Final answers</h2>
        {alignment.answerDiffers && !columns.related ? (
          <>
            <p className="alert info" style={{ marginTop: 0 }} data-testid="answers-unrelated">
              The answers are entirely different: they share too few words for a word-by-word comparison, so each is shown whole.
            </p>
            <div className="grid-2">
              {(['a', 'b'] as const).map((side) => (
                <div key={side}>
                  <h3 style={{ marginTop: 0 }}>{side.toUpperCase()}</h3>
                  <p className="answer-diff" data-testid={`answer-${side}`} data-whole="true">
                    {side === 'a' ? a.run.finalAnswer : b.run.finalAnswer}
                  </p>
                </div>
              ))}
            </div>
          </>
        ) : alignment.answerDiffers ? (
          <>
            <p className="small muted" style={{ marginTop: 0 }}>
              Side by side, word by word: <del className="diff-a">struck through</del> is only in A, <ins className="diff-b">underlined</ins> only in B.
            </p>
            <div className="grid-2">
              {(['a', 'b'] as const).map((side) => (
                <div key={side}>
                  <h3 style={{ marginTop: 0 }}>{side.toUpperCase()}</h3>
                  <p className="answer-diff" data-testid={`answer-${side}`}>
                    {columns[side].map((part, i) =>
                      part.kind === 'only_a' ? (
                        <del key={i} className="diff-a">
                          {part.text}
                        </del>
                      ) : part.kind === 'only_b' ? (
                        <ins key={i} className="diff-b">
                          {part.text}
                        </ins>
                      ) : (
                        <span key={i}>{part.text}</span>
                      ),
                    )}
                  </p>
                </div>
              ))}
            </div>
          </>
        ) : (
          <p className="answer-diff">{a.run.finalAnswer}</p>
        )}
      </section>
      {byAgent ? (
        <>
          <p className="small muted" data-testid="compare-by-agent-note">
            These runs have several agents: each agent is compared with the agent of the same path in the other run, its steps counted from its own first.
          </p>
          {byAgent.map((g, i) => (
            <section key={g.path} className="panel" aria-label={`Agent ${g.path}`} data-testid="agent-compare" data-agent={g.path} data-present={g.presentIn}>
              <h2 style={{ marginTop: 0 }}>
                <span className="mono">{g.path}</span>{' '}
                {g.presentIn !== 'both' ? <span className="badge warn">only in {g.presentIn.toUpperCase()}</span> : null}
              </h2>
              <p className="small" style={{ marginTop: 0 }}>
                {g.alignment.differentSteps === 0 ? 'Same steps.' : `${g.alignment.differentSteps} step(s) differ.`}{' '}
                {g.alignment.terminationDiffers ? (
                  <strong className="delta worse">
                    Ended {g.ended.a} in A, {g.ended.b} in B.
                  </strong>
                ) : (
                  <>Ended {g.ended.a} in both.</>
                )}
              </p>
              <StepTable alignment={g.alignment} idPrefix={`agent-${i}-step-`} testId="compare-table" />
            </section>
          ))}
        </>
      ) : (
        <StepTable alignment={alignment} idPrefix="step-" testId="compare-table" replayedStep={replayed?.d.step ?? null} />
      )}
    </main>
  );
}
