/** Two runs side by side, aligned by harness step, with every difference highlighted. Server-rendered: nothing here is interactive. */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getRunOrThrow } from '@/lib/db/runs-read';
import { listRuns } from '@/lib/db/runs-list';
import { InvalidInputError, NotFoundError } from '@/lib/db/errors';
import { requireRunInTenant } from '@/lib/db/tenant-scope';
import { findSameCaseRun, resolveRunId } from '@/lib/db/run-lookup';
import { datasetOptions } from '@/lib/runs/datasets';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '@/lib/harness/config';
import { answerColumns } from '@/lib/charts/answer-diff';
import { countOf } from '@/lib/format/units';
import { RunSameCase } from './_components/run-same-case';
import type { StoredRun } from '@/lib/db/types';
import { alignRuns, DIFFERENCE_LABELS, type AlignEntry, type AlignedStep, type Alignment } from '@/lib/charts/align-runs';
import { agentSideOf, alignByAgent, alignEntryOf, hasSeveralAgents } from '@/lib/charts/align-agents';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { TerminationBadge } from '@/components/termination-badge';
import { LabelBadges } from '@/components/label-badges';
import { labelsOfRun, type RunLabelDto } from '@/lib/db/labels';
import { currentLabels } from '@/lib/eval/labels';
import { divergenceOf } from '@/lib/charts/divergence';
import { UngovernedBadge } from '@/components/governance-badge';

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

function Side({ side }: { side: AlignedStep['a'] }) {
  if (!side) return <span className="muted">(run had ended)</span>;
  return (
    <div className="stack">
      {side.calls.map((c, i) => (
        <div key={i}>
          <strong className="mono">{c.name}</strong> <span className={`badge ${c.status === 'ok' ? 'good' : 'bad'}`}>{c.status}</span>
          <pre>{c.args}</pre>
        </div>
      ))}
      {side.guards.map((g) => (
        <div key={g}>
          <span className="badge bad">guard</span> {g}
        </div>
      ))}
      {side.calls.length === 0 && side.text ? <pre className="muted">{side.text}</pre> : null}
    </div>
  );
}

function Header({ label, stored, labels }: { label: string; stored: StoredRun; labels: RunLabelDto[] }) {
  const current = currentLabels(labels).sort((x, y) => (x.step ?? -1) - (y.step ?? -1));
  return (
    <div className="panel">
      <h2 style={{ marginTop: 0 }}>
        {label}: <Link href={`/runs/${stored.id}`}>run {stored.id.slice(-8)}</Link>
      </h2>
      <p style={{ marginTop: 0 }}>{stored.run.query}</p>
      <div className="row small">
        <TerminationBadge reason={stored.run.terminationReason} />
        <UngovernedBadge governed={stored.meta.governed ?? false} />
        <span className="badge">setting: {stored.meta.setting}</span>
        {stored.run.caseId ? <span className="badge info">case {stored.run.caseId}</span> : null}
        <span className="muted">
          {countOf(stored.run.steps, 'step')} · {countOf(stored.run.usage.totalTokens, 'token')}
        </span>
      </div>
      {current.length > 0 ? (
        <div className="row small" data-testid={`compare-labels-${label}`}>
          {current.map((l) => (
            <span key={l.id}>
              {l.step === null ? 'run' : <a href={`#step-${l.step}`}>step {l.step}</a>}: <LabelBadges label={l} />
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The step-by-step table of an alignment (a whole run, or one agent's steps). */
function StepTable({ alignment, idPrefix, testId, replayedStep = null }: { alignment: Alignment; idPrefix: string; testId: string; replayedStep?: number | null }) {
  return (
    <div className="table-wrap">
      <table className="data" data-testid={testId}>
        <thead>
          <tr>
            <th>Step</th>
            <th>Difference</th>
            <th>A</th>
            <th>B</th>
          </tr>
        </thead>
        <tbody>
          {alignment.steps.map((s) => (
            <tr
              key={s.step}
              id={`${idPrefix}${s.step}`}
              className={`diff-row ${s.difference}${replayedStep === s.step ? ' diverged' : ''}`}
              data-difference={s.difference}
              data-diverged={replayedStep === s.step ? 'true' : undefined}
            >
              <td className="num">
                {s.step}
                {replayedStep === s.step ? (
                  <div>
                    <span className="badge bad">diverged</span>
                  </div>
                ) : null}
              </td>
              <td>{s.difference === 'same' ? <span className="muted">same</span> : <strong>{DIFFERENCE_LABELS[s.difference]}</strong>}</td>
              <td>
                <Side side={s.a} />
              </td>
              <td>
                <Side side={s.b} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

async function Picker({ a, b, q, problem, tenant }: { a: string | null; b: string | null; q: string | null; problem: string | null; tenant: string }) {
  let items: Awaited<ReturnType<typeof listRuns>>['items'] = [];
  let searchProblem: string | null = null;
  try {
    ({ items } = await listRuns({ filters: q ? { tenant, text: q } : { tenant }, limit: 20 }));
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    searchProblem = `Search: ${err.message}`;
  }
  return (
    <>
      {problem || searchProblem ? (
        <p className="alert error" role="alert">
          {problem ?? searchProblem}
        </p>
      ) : null}
      <form className="panel row" method="get" action="/compare" style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="cmp-a">Run A (id or the 8-character short id)</label>
          <input id="cmp-a" name="a" defaultValue={a ?? ''} size={30} className="mono" />
        </div>
        <div className="field">
          <label htmlFor="cmp-b">Run B</label>
          <input id="cmp-b" name="b" defaultValue={b ?? ''} size={30} className="mono" />
        </div>
        <button type="submit" className="primary">
          Compare
        </button>
      </form>
      <form className="panel row" method="get" action="/compare" role="search" aria-label="Find a run" style={{ alignItems: 'flex-end' }}>
        {a ? <input type="hidden" name="a" value={a} /> : null}
        {b ? <input type="hidden" name="b" value={b} /> : null}
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor="cmp-q">Find runs whose question, answer or tool calls contain</label>
          <input id="cmp-q" name="q" defaultValue={q ?? ''} />
        </div>
        <button type="submit">Search</button>
      </form>
      <h2>{q ? `Runs matching “${q}”` : 'Recent runs'}</h2>
      {items.length === 0 ? (
        <p className="panel">{q ? 'No runs match this search.' : 'No runs stored yet.'}</p>
      ) : (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Run</th>
                <th>Case</th>
                <th>Setting</th>
                <th>Query</th>
                <th>Use as</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id}>
                  <td className="mono">{r.id}</td>
                  <td>{r.caseId ?? '—'}</td>
                  <td>{r.setting}</td>
                  <td className="truncate">{r.query}</td>
                  <td className="nowrap">
                    <Link href={`/compare?a=${r.id}${b ? `&b=${b}` : ''}`} aria-label={`Use run ${r.id.slice(-8)} as A`}>
                      A
                    </Link>{' '}
                    ·{' '}
                    <Link href={`/compare?${a ? `a=${a}&` : ''}b=${r.id}`} aria-label={`Use run ${r.id.slice(-8)} as B`}>
                      B
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
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
        <Picker a={a && a !== 'missing' ? a.id : ra.id} b={rb.id} q={q} problem={problem} tenant={user.tenant} />
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
        <Header label="A" stored={a} labels={labelsA} />
        <Header label="B" stored={b} labels={labelsB} />
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
