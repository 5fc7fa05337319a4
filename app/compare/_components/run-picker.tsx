/** Choosing the runs to compare: by id, or from the tenant's recent runs or a search. */
import Link from 'next/link';
import { listRuns } from '@/lib/db/runs/runs-list';
import { InvalidInputError } from '@/lib/db/core/errors';

export async function RunPicker({ a, b, q, problem, tenant }: { a: string | null; b: string | null; q: string | null; problem: string | null; tenant: string }) {
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
