/**
 * The runs table: every stored run of the caller's tenant, filtered, sorted and paged by keyset cursor (constant cost per
 * page however many runs there are), with a launcher to run a golden case or a query.
 */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import Form from 'next/form';
import { countRuns, listRunModelIds, listRuns } from '@/lib/db/runs-list';
import { listRunsGrouped, type GroupedRow } from '@/lib/db/runs-grouped';
import { MatchSnippet } from './_components/match-snippet';
import { SuiteGroupRow } from './_components/suite-group-row';
import { InvalidInputError } from '@/lib/db/errors';
import type { RunListItem } from '@/lib/db/types';
import { datasetOptions } from '@/lib/runs/datasets';
import { WEAKNESS_FLAGS, TRANSPORTS, RUN_GUARD_NAMES } from '@/lib/harness/config';
import { TERMINATION_REASONS } from '@/lib/harness/types';
import { PAGE_SIZES, RunsQuerySchema, activeFilters, groupingBlockedBy, hasFilters, runFiltersOf, runsCsvHref, runsHref, type RunsQuery } from '@/lib/schemas/runs-query';
import { TerminationBadge } from '@/components/termination-badge';
import { ImportedBadge } from '@/components/imported-badge';
import { UngovernedBadge } from '@/components/governance-badge';
import { getDb } from '@/lib/db/client';
import { approvalsForRuns } from '@/lib/db/governance-approvals';
import { failedWritesOfRuns, requestOutcomes } from '@/lib/runs/request-view';
import { RunLauncher } from './_components/run-launcher';
import { loadMcpServers } from '@/lib/mcp/client/server-config';
import { DeleteRunButton } from './_components/delete-run-button';
import { formatDuration } from '@/lib/format/units';
import { holdsRole } from '@/lib/auth/authorize';
import { RoleNote, roleNote } from '@/components/role-note';
import { pickableProviders } from '@/lib/runs/model-choice';
import { RunningBadge } from '@/components/running-badge';
import { CostText } from '@/components/cost-text';
import { RefreshWhileRunning } from './_components/refresh-while-running';
import { isLiveStatus } from '@/lib/format/run-status';
import { SettingBadge } from '@/components/setting-badge';
import { FiltersDisclosure } from '@/components/filters-disclosure';
import { RowKeys } from '@/components/row-keys';
import { ComparePicker, CompareBar, PickRun } from './_components/compare-picker';
import { currentLabelSet, labelSummaries } from '@/lib/db/labels';
import { LabelBadges } from '@/components/label-badges';

export const dynamic = 'force-dynamic';


/** A filter of the runs form: a labelled select of `options` with "any" (no filter) first. */
function FilterSelect({ id, name, label, value, options }: { id: string; name: string; label: string; value: string | undefined; options: readonly string[] }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        <option value="">any</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

function SortHeader({ query, sortKey, label }: { query: RunsQuery; sortKey: RunsQuery['sort']; label: string }) {
  const active = query.sort === sortKey;
  const dir = active && query.dir === 'desc' ? 'asc' : 'desc';
  return (
    <th className="num" aria-sort={active ? (query.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <Link href={runsHref(query, { sort: sortKey, dir, cursor: undefined })}>
        {label}
        {active ? (query.dir === 'asc' ? ' ▲' : ' ▼') : ''}
      </Link>
    </th>
  );
}

export default async function RunsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const canRun = holdsRole(user.memberships, 'operator');
  const query = RunsQuerySchema.parse(await searchParams);
  const datasets = datasetOptions(user.tenant);
  // Ids and titles only: commands, URLs and headers stay on the server.
  const toolServers = loadMcpServers().map(({ id, title }) => ({ id, title: title ?? id }));
  const filters = runFiltersOf(query, user.tenant);
  let rows: GroupedRow[] = [];
  let nextCursor: string | null = null;
  let cursorError: string | null = null;
  let inputError: { field: string; message: string } | null = null;
  const groupBlocked = groupingBlockedBy(query);
  // The count, the model filter's options and the label set do not depend on the page of rows: asked
  // for at once, beside it (a bad filter makes the count throw what the list throws: no count then).
  const counting = countRuns(filters).catch((err: unknown) => {
    if (err instanceof InvalidInputError) return { count: 0, exact: true };
    throw err;
  });
  const beside = Promise.all([counting, listRunModelIds(user.tenant), currentLabelSet(user.tenant)]);
  beside.catch(() => {}); // awaited below; if the list throws first, its error is the one the page reports
  try {
    if (groupBlocked === null) {
      ({ rows, nextCursor } = await listRunsGrouped({ filters, dir: query.dir, cursor: query.cursor, limit: query.size }));
    } else {
      const page = await listRuns({ filters, sort: { key: query.sort, dir: query.dir }, cursor: query.cursor, limit: query.size });
      rows = page.items.map((run) => ({ kind: 'run', run }));
      nextCursor = page.nextCursor;
    }
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    if (err.field === 'cursor') cursorError = err.message;
    else inputError = { field: err.field, message: err.message };
  }
  const items: RunListItem[] = rows.flatMap((r) => (r.kind === 'run' ? [r.run] : []));
  const [counted, models, labelSet] = await beside;
  const total = inputError ? { count: 0, exact: true } : counted;
  // Paused runs link to the request they wait for.
  const [waiting, labelled, failedWrites] = await Promise.all([
    approvalsForRuns(getDb().prisma, items.filter((r) => r.status === 'paused').map((r) => r.id)),
    labelSummaries(user.tenant, items.map((r) => r.id)),
    failedWritesOfRuns(items.filter((r) => r.governed && r.status === 'finished').map((r) => r.id)),
  ]);
  // A paused run whose request was decided no longer waits for a reviewer: say where it is instead.
  const decided = await requestOutcomes([...waiting.values()].flat().filter((r) => r.status !== 'pending'));
  const pausedOn = (runId: string) => {
    const requests = waiting.get(runId) ?? [];
    const open = requests.find((r) => r.status === 'pending');
    const last = requests.at(-1);
    return { request: open ?? last, outcome: !open && last ? (decided.get(last.id) ?? null) : null };
  };
  const categories = [...new Set(datasets.flatMap((d) => d.categories))].sort();

  return (
    <main className="page">
      <h1>Runs</h1>
      <p className="lede">
        Every stored harness run. Open one to replay it step by step, or tick two to compare them (j and k move through the rows; ? lists
        the keys).
      </p>
      {canRun ? <RunLauncher datasets={datasets} toolServers={toolServers} modelProviders={pickableProviders()} /> : <RoleNote text={roleNote('Running a case or a query', 'operator', user.roles)} />}

      <FiltersDisclosure active={activeFilters(query)}>
      {/* next/form: Apply is a client navigation (only the page's data is fetched), not a full reload that re-hydrates every component (issue 43: 1.6 s). */}
      <Form className="panel row" action="/runs" aria-label="Filter runs" style={{ alignItems: 'flex-end' }}>
        <div className="field">
          <label htmlFor="f-q">Text contains</label>
          <input
            id="f-q"
            name="q"
            type="search"
            defaultValue={query.q ?? ''}
            placeholder="e.g. a tracking number"
            minLength={3}
            maxLength={200}
            aria-describedby="f-q-help"
            aria-invalid={inputError?.field === 'text' ? true : undefined}
          />
          <span id="f-q-help" className="muted small">
            question, answer, tool arguments or results
          </span>
        </div>
        <FilterSelect id="f-dataset" name="dataset" label="Dataset" value={query.dataset} options={[...new Set(datasets.map((d) => d.name))]} />
        <FilterSelect id="f-flag" name="flag" label="Flag" value={query.flag} options={WEAKNESS_FLAGS} />
        <div className="field">
          <label htmlFor="f-setting">Exact setting</label>
          <input id="f-setting" name="setting" defaultValue={query.setting ?? ''} placeholder="none" size={12} />
        </div>
        <FilterSelect id="f-category" name="category" label="Category" value={query.category} options={categories} />
        <FilterSelect id="f-termination" name="termination" label="Termination" value={query.termination} options={TERMINATION_REASONS} />
        <div className="field">
          <label htmlFor="f-case">Case id</label>
          <input id="f-case" name="caseId" defaultValue={query.caseId ?? ''} size={8} />
        </div>
        <div className="field">
          <label htmlFor="f-status">Approval</label>
          <select id="f-status" name="status" defaultValue={query.status ?? ''}>
            <option value="">any</option>
            <option value="paused">waiting for approval</option>
          </select>
        </div>
        <FilterSelect id="f-transport" name="transport" label="Transport" value={query.transport} options={TRANSPORTS} />
        <FilterSelect id="f-model" name="model" label="Model" value={query.model} options={query.model && !models.includes(query.model) ? [...models, query.model] : models} />
        <FilterSelect id="f-guard" name="guard" label="Guard" value={query.guard} options={RUN_GUARD_NAMES} />
        <div className="field">
          <label htmlFor="f-labelled">Labelled</label>
          <select id="f-labelled" name="labelled" defaultValue={query.labelled ?? ''}>
            <option value="">any</option>
            <option value="yes">labelled</option>
            <option value="no">not labelled</option>
          </select>
        </div>
        <FilterSelect id="f-label" name="label" label="Label" value={query.label} options={[...labelSet.verdicts, ...labelSet.categories]} />
        <div className="field">
          <label htmlFor="f-tool-error">
            <input id="f-tool-error" type="checkbox" name="toolError" value="1" defaultChecked={query.toolError === '1'} /> A tool call errored
          </label>
        </div>
        <div className="field">
          <label htmlFor="f-slower">Slower than (s)</label>
          <input id="f-slower" name="slowerThan" type="number" min={0} step="any" defaultValue={query.slowerThan ?? ''} size={6} />
        </div>
        <div className="field">
          <label htmlFor="f-cost">Cost above ($)</label>
          <input id="f-cost" name="costAbove" type="number" min={0} step="any" defaultValue={query.costAbove ?? ''} size={6} />
        </div>
        <div className="field">
          <label htmlFor="f-group">
            <input id="f-group" type="checkbox" name="group" value="suite" defaultChecked={query.group === 'suite'} /> Group by suite
          </label>
        </div>
        <div className="field">
          <label htmlFor="f-session">Session</label>
          <input id="f-session" name="session" defaultValue={query.session ?? ''} placeholder="session.id" />
        </div>
        <div className="field">
          <label htmlFor="f-user">End user</label>
          <input id="f-user" name="user" defaultValue={query.user ?? ''} placeholder="user.id" />
        </div>
        <div className="field">
          <label htmlFor="f-agent">Agent</label>
          <input id="f-agent" name="agent" defaultValue={query.agent ?? ''} placeholder="agent name" size={14} aria-describedby="f-agent-help" />
          <span id="f-agent-help" className="muted small">
            exact name, e.g. stockroom
          </span>
        </div>
        <div className="field">
          <label htmlFor="f-multi-agent">
            <input id="f-multi-agent" type="checkbox" name="multiAgent" value="1" defaultChecked={query.multiAgent === '1'} /> Several agents
          </label>
        </div>
        <div className="field">
          <label htmlFor="f-source">Source</label>
          <select id="f-source" name="source" defaultValue={query.source ?? ''}>
            <option value="">any</option>
            <option value="harness">run here</option>
            <option value="imported">imported</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-size">Per page</label>
          <select id="f-size" name="size" defaultValue={String(query.size)}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        {query.suite ? <input type="hidden" name="suite" value={query.suite} /> : null}
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="dir" value={query.dir} />
        <button type="submit" className="primary">
          Apply
        </button>
        {hasFilters(query) ? <Link href="/runs">Clear filters</Link> : null}
      </Form>
      </FiltersDisclosure>

      <RefreshWhileRunning active={items.some((r) => isLiveStatus(r.status))} />
      <p className="muted small" data-testid="runs-count">
        {total.exact ? total.count.toLocaleString('en') : `${total.count.toLocaleString('en')}+`} matching run{total.count === 1 ? '' : 's'}
        {query.suite ? ` in suite ${query.suite}` : ''}
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
        <ComparePicker>
        <CompareBar />
        <RowKeys table="runs-table" />
        <div className="table-wrap">
          <table className="data runs" data-testid="runs-table">
            <thead>
              <tr>
                <th>Run</th>
                <th>Case</th>
                <th>Query</th>
                <th>Setting</th>
                <th>Termination</th>
                <SortHeader query={query} sortKey="steps" label="Steps" />
                <th className="num">Tools</th>
                <th className="num">Agents</th>
                <SortHeader query={query} sortKey="totalTokens" label="Tokens" />
                <th className="num">Cost</th>
                <SortHeader query={query} sortKey="durationMs" label="Duration" />
                <SortHeader query={query} sortKey="startedAt" label="Started" />
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                if (row.kind === 'suite')
                  return <SuiteGroupRow key={row.suite.id} suite={row.suite} columns={13} runsHref={runsHref(query, { suite: row.suite.id, group: undefined, cursor: undefined })} />;
                const r = row.run;
                const paused = r.status === 'paused' ? pausedOn(r.id) : null;
                return (
                <tr key={r.id}>
                  <td className="mono">
                    <PickRun id={r.id} label={r.id.slice(-8)} />{' '}
                    <Link href={`/runs/${r.id}`} data-row-link>
                      {r.id.slice(-8)}
                    </Link>{' '}
                    <ImportedBadge source={r.source} />
                    {r.sessionId ? (
                      <div className="small">
                        <Link href={`/sessions/${encodeURIComponent(r.sessionId)}`}>session {r.sessionId}</Link>
                      </div>
                    ) : null}
                  </td>
                  <td>
                    {r.caseId ?? <span className="muted">—</span>}
                    {r.category ? <div className="muted small">{r.category}</div> : null}
                  </td>
                  <td title={r.query}>
                    <div className="clamp-2">{r.query}</div>
                    {r.match && r.match.field !== 'question' ? <MatchSnippet match={r.match} /> : null}
                  </td>
                  <td>
                    <SettingBadge setting={r.setting} />
                    <div className="muted small">{r.datasetName}</div>
                  </td>
                  <td>
                    {paused?.outcome && paused.request ? (
                      <Link href={`/approvals/${paused.request.id}`} className={`badge ${paused.outcome.tone}`} data-testid="request-outcome">
                        {paused.outcome.text}
                      </Link>
                    ) : paused ? (
                      <Link href={paused.request ? `/approvals/${paused.request.id}` : '/approvals'} className="badge info" data-testid="waiting-for-approval">
                        waiting for approval
                      </Link>
                    ) : isLiveStatus(r.status) ? (
                      <RunningBadge status={r.status} />
                    ) : (
                      <TerminationBadge reason={r.terminationReason} blocked={r.blockedCount} failedWrites={failedWrites.get(r.id) ?? 0} />
                    )}{' '}
                    <UngovernedBadge governed={r.governed} />
                    {labelled.get(r.id) ? (
                      <div className="small" data-testid="row-label">
                        <LabelBadges label={{ ...labelled.get(r.id)!, score: null }} />
                      </div>
                    ) : null}
                  </td>
                  <td className="num">{r.steps}</td>
                  <td className="num">
                    {r.toolCallCount}
                    {r.blockedCount ? <span className="badge warn">{r.blockedCount} blocked</span> : null}
                  </td>
                  <td className="num" data-testid="agent-count">
                    {r.agentCount}
                  </td>
                  <td className="num" data-testid="run-tokens">
                    {r.unreportedCalls > 0 ? (r.totalTokens === 0 ? 'not reported' : `≥ ${r.totalTokens.toLocaleString('en')}`) : r.totalTokens.toLocaleString('en')}
                  </td>
                  <td className="num small">
                    <CostText usd={r.costUsd} known={r.costKnown} unreportedCalls={r.unreportedCalls} />
                  </td>
                  <td className="num">{formatDuration(r.durationMs)}</td>
                  <td className="small">
                    <time dateTime={r.startedAt}>
                      {r.startedAt.slice(0, 10)} <span className="nowrap">{r.startedAt.slice(11, 19)}</span>
                    </time>
                  </td>
                  <td className="nowrap">
                    <Link href={`/compare?a=${r.id}`} className="small">
                      compare
                    </Link>{' '}
                    {canRun ? <DeleteRunButton runId={r.id} /> : null}
                  </td>
                </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        </ComparePicker>
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
