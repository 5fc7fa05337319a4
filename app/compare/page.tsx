/** Two runs side by side, aligned by harness step, with every difference highlighted. Server-rendered: nothing here is interactive. */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import { getRunOrThrow } from '@/lib/db/runs-read';
import { listRuns } from '@/lib/db/runs-list';
import { NotFoundError } from '@/lib/db/errors';
import { requireRunInTenant } from '@/lib/db/tenant-scope';
import type { StoredRun } from '@/lib/db/types';
import { callStatus } from '@/lib/eval/run-summary';
import { alignRuns, DIFFERENCE_LABELS, type AlignEntry, type AlignedStep } from '@/lib/charts/align-runs';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { TerminationBadge } from '@/components/termination-badge';
import { UngovernedBadge } from '@/components/governance-badge';

export const dynamic = 'force-dynamic';

const idOf = (v: unknown) => {
  const parsed = StoredIdSchema.safeParse(Array.isArray(v) ? v[0] : v);
  return parsed.success ? parsed.data : null;
};

function entriesOf(stored: StoredRun): AlignEntry[] {
  return stored.run.trajectory.map((e): AlignEntry => {
    switch (e.kind) {
      case 'model_turn':
        return { kind: 'model_turn', step: e.step, text: e.text };
      case 'tool_call':
        return { kind: 'tool_call', step: e.step, name: e.name, arguments: e.arguments, status: callStatus(e) };
      case 'guard':
        return { kind: 'guard', step: e.step, guard: e.guard, reason: e.reason, detail: e.detail };
      case 'compaction':
        return { kind: 'compaction', step: e.step };
      case 'model_retry':
        return { kind: 'guard', step: e.step, guard: 'model_retry', reason: e.reason, detail: e.detail };
    }
  });
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

function Header({ label, stored }: { label: string; stored: StoredRun }) {
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
          {stored.run.steps} steps · {stored.run.usage.totalTokens} tokens
        </span>
      </div>
      <h3>Final answer</h3>
      <pre>{stored.run.finalAnswer}</pre>
    </div>
  );
}

async function Picker({ a, b, problem, tenant }: { a: string | null; b: string | null; problem: string | null; tenant: string }) {
  const { items } = await listRuns({ filters: { tenant }, limit: 20 });
  return (
    <>
      {problem ? <p className="alert error">{problem}</p> : null}
      <form className="panel row" method="get" action="/compare" style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="cmp-a">Run A</label>
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
      <h2>Recent runs</h2>
      {items.length === 0 ? (
        <p className="panel">No runs stored yet.</p>
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
                    <Link href={`/compare?a=${r.id}${b ? `&b=${b}` : ''}`}>A</Link> · <Link href={`/compare?${a ? `a=${a}&` : ''}b=${r.id}`}>B</Link>
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
  const aId = idOf(params.a);
  const bId = idOf(params.b);
  const [a, b] = await Promise.all([load(aId, user.tenant), load(bId, user.tenant)]);
  const missing = a === 'missing' ? 'Run A does not exist.' : b === 'missing' ? 'Run B does not exist.' : null;

  if (!a || !b || a === 'missing' || b === 'missing') {
    return (
      <main className="page">
        <h1>Compare two runs</h1>
        <p className="lede">Pick two runs — for example the same golden case with and without a weakness flag — to see where they diverge.</p>
        <Picker a={aId} b={bId} problem={missing} tenant={user.tenant} />
      </main>
    );
  }

  const alignment = alignRuns(
    { entries: entriesOf(a), terminationReason: a.run.terminationReason, finalAnswer: a.run.finalAnswer },
    { entries: entriesOf(b), terminationReason: b.run.terminationReason, finalAnswer: b.run.finalAnswer },
  );

  return (
    <main className="page">
      <h1>Compare two runs</h1>
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
        <Header label="A" stored={a} />
        <Header label="B" stored={b} />
      </div>
      <div className="table-wrap">
        <table className="data" data-testid="compare-table">
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
              <tr key={s.step} className={`diff-row ${s.difference}`} data-difference={s.difference}>
                <td className="num">{s.step}</td>
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
    </main>
  );
}
