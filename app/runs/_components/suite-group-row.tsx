import Link from 'next/link';
import type { SuiteGroupRow as SuiteGroup } from '@/lib/db/runs/runs-grouped';

/** A suite as one collapsed row of the runs table: how many of its runs match, and links to them. */
export function SuiteGroupRow({ suite, columns, runsHref }: { suite: SuiteGroup; columns: number; runsHref: string }) {
  return (
    <tr data-testid="suite-group" className="group-row">
      <td colSpan={columns}>
        <span className="badge info">{suite.kind}</span>{' '}
        <strong>
          {suite.runs.toLocaleString('en')} run{suite.runs === 1 ? '' : 's'}
        </strong>{' '}
        in suite <span className="mono">{suite.id.slice(-8)}</span> <span className="muted small">({suite.status}, {suite.datasetName}, started{' '}
        <time dateTime={suite.createdAt}>{suite.createdAt.slice(0, 10)} {suite.createdAt.slice(11, 19)}</time>)</span>{' '}
        <Link href={runsHref}>Show its runs</Link>
        {suite.kind === 'matrix' ? (
          <>
            {' · '}
            <Link href={`/matrix?suite=${encodeURIComponent(suite.id)}`}>Open the suite</Link>
          </>
        ) : null}
      </td>
    </tr>
  );
}
