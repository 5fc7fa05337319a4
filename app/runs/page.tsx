/**
 * The runs table: every stored run of the caller's tenant, filtered, sorted and paged by keyset cursor (constant cost per
 * page however many runs there are), with a launcher to run a golden case or a query. Loading: ./load-runs.ts; shaping:
 * lib/charts/runs-list.ts; the form and the table: ./_components.
 */
import Link from 'next/link';
import { requireUser } from '@/lib/auth/page-guard';
import { holdsRole } from '@/lib/auth/authorize';
import { datasetOptions } from '@/lib/runs/datasets';
import { pickableProviders } from '@/lib/runs/model-choice';
import { loadMcpServers } from '@/lib/mcp/client/server-config';
import { RunsQuerySchema, hasFilters, runsCsvHref, runsHref } from '@/lib/schemas/runs-query';
import { isLiveStatus } from '@/lib/format/run-status';
import { countText } from '@/lib/charts/runs-list';
import { RoleNote, roleNote } from '@/components/role-note';
import { RunLauncher } from './_components/run-launcher';
import { RefreshWhileRunning } from './_components/refresh-while-running';
import { RunsFilters } from './_components/runs-filters';
import { RunsTable } from './_components/runs-table';
import { loadRunsPage } from './load-runs';

export const dynamic = 'force-dynamic';

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const canRun = holdsRole(user.memberships, 'operator');
  const query = RunsQuerySchema.parse(await searchParams);
  const datasets = datasetOptions(user.tenant);
  // Ids and titles only: commands, URLs and headers stay on the server.
  const toolServers = loadMcpServers().map(({ id, title }) => ({ id, title: title ?? id }));
  const { rows, items, nextCursor, cursorError, inputError, groupBlocked, total, models, labelSet, waiting, labelled, failedWrites, decided, scores, evaluators, tags } = await loadRunsPage(query, user.tenant);

  return (
    <main className="page">
      <h1>Runs</h1>
      <p className="lede">
        Every stored harness run. Open one to replay it step by step, or tick two to compare them (j and k move through the rows; ? lists
        the keys).
      </p>
      {canRun ? <RunLauncher datasets={datasets} toolServers={toolServers} modelProviders={pickableProviders()} /> : <RoleNote text={roleNote('Running a case or a query', 'operator', user.roles)} />}

      <RunsFilters query={query} datasets={datasets} models={models} labelSet={labelSet} inputError={inputError} evaluators={evaluators} tags={tags} />

      <RefreshWhileRunning active={items.some((r) => isLiveStatus(r.status))} />
      <p className="muted small" data-testid="runs-count">
        {countText(total, query.suite)}
        {' · '}
        <a href={runsCsvHref(query)} download data-testid="runs-csv">
          Download CSV
        </a>
        {' · '}
        <Link href={runsHref(query, { cursor: undefined, size: undefined }).replace(/^\/runs/, '/label-queue')} data-testid="label-queue-link">
          Label these runs one by one
        </Link>
      </p>

      {query.group && groupBlocked !== null ? (
        <p className="muted small" data-testid="grouping-note">
          Not grouped by suite: {groupBlocked}.
        </p>
      ) : null}
      {inputError ? (
        <p className="alert error" role="alert" data-testid="filter-error">
          {inputError.field === 'text' ? 'Text contains' : inputError.field}: {inputError.message}
        </p>
      ) : cursorError ? (
        <p className="alert error">
          This page link is out of date ({cursorError}). <Link href={runsHref(query, { cursor: undefined })}>Go to the first page</Link>.
        </p>
      ) : rows.length === 0 ? (
        <p className="panel">{hasFilters(query) ? 'No runs match these filters.' : 'No runs yet: run a case above, or run the matrix.'}</p>
      ) : (
        <RunsTable query={query} rows={rows} canRun={canRun} waiting={waiting} decided={decided} labelled={labelled} failedWrites={failedWrites} scores={scores} />
      )}
      <nav className="row" aria-label="Pagination" style={{ marginTop: '0.75rem' }}>
        {query.cursor ? <Link href={runsHref(query, { cursor: undefined })}>« First page</Link> : null}
        {nextCursor ? (
          <Link className="button" href={runsHref(query, { cursor: nextCursor })} rel="next">
            Next page »
          </Link>
        ) : rows.length > 0 ? (
          <span className="muted small">Last page</span>
        ) : null}
      </nav>
    </main>
  );
}
