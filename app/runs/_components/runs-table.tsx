/** The runs table: one row per run (or per suite, grouped), sortable columns, tick two to compare. */
import Link from 'next/link';
import type { GroupedRow } from '@/lib/db/runs/runs-grouped';
import type { ApprovalRequest, RequestOutcome } from '@/lib/governance';
import { runsHref, type RunsQuery } from '@/lib/schemas/runs-query';
import { pausedOn, startedParts, tokensText } from '@/lib/charts/runs-list';
import { formatDuration } from '@/lib/format/units';
import { isLiveStatus } from '@/lib/format/run-status';
import { TerminationBadge } from '@/components/termination-badge';
import { ImportedBadge } from '@/components/imported-badge';
import { UngovernedBadge } from '@/components/governance-badge';
import { RunningBadge } from '@/components/running-badge';
import { CostText } from '@/components/cost-text';
import { SettingBadge } from '@/components/setting-badge';
import { RowKeys } from '@/components/row-keys';
import { LabelBadges } from '@/components/label-badges';
import { MatchSnippet } from './match-snippet';
import { SuiteGroupRow } from './suite-group-row';
import { DeleteRunButton } from './delete-run-button';
import { ComparePicker, CompareBar, PickRun } from './compare-picker';

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

export function RunsTable({
  query,
  rows,
  canRun,
  waiting,
  decided,
  labelled,
  failedWrites,
  scores = new Map(),
}: {
  query: RunsQuery;
  rows: readonly GroupedRow[];
  canRun: boolean;
  /** Paused runs' approval requests, by run id. */
  waiting: ReadonlyMap<string, readonly ApprovalRequest[]>;
  /** What became of decided requests, by request id. */
  decided: ReadonlyMap<string, RequestOutcome>;
  labelled: ReadonlyMap<string, { verdict: string; category: string | null; labels: number }>;
  failedWrites: ReadonlyMap<string, number>;
  /** Online evaluators' newest scores, by run id then evaluator name (issue 37). */
  scores?: ReadonlyMap<string, ReadonlyMap<string, { score: number | null; evaluatorVersion: number }>>;
}) {
  return (
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
          {query.evaluator ? <SortHeader query={query} sortKey="score" label={`Score (${query.evaluator})`} /> : null}
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          if (row.kind === 'suite')
            return <SuiteGroupRow key={row.suite.id} suite={row.suite} columns={13} runsHref={runsHref(query, { suite: row.suite.id, group: undefined, cursor: undefined })} />;
          const r = row.run;
          const paused = r.status === 'paused' ? pausedOn(waiting.get(r.id), decided) : null;
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
              {r.tags.length > 0 ? (
                <div className="small" data-testid="row-tags">
                  {r.tags.map((t) => (
                    <Link key={t} href={runsHref(query, { tag: t, cursor: undefined })} className="badge" title={`runs tagged ${t}`}>
                      {t}
                    </Link>
                  ))}
                </div>
              ) : null}
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
              {r.taintedStep !== null ? (
                <Link href={`/runs/${r.id}?step=${r.taintedStep}`} className="badge bad" data-testid="tainted-badge" title="The run read a planted instruction at this step">
                  tainted at step {r.taintedStep}
                </Link>
              ) : null}
              {scores.get(r.id) ? (
                <div className="small" data-testid="row-scores">
                  {[...scores.get(r.id)!].map(([name, s]) => (
                    <span key={name} className="badge" title={`evaluator ${name} v${s.evaluatorVersion}`}>
                      {name} {s.score === null ? '—' : s.score.toFixed(2)}
                    </span>
                  ))}
                </div>
              ) : null}
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
              {tokensText(r)}
            </td>
            <td className="num small">
              <CostText usd={r.costUsd} known={r.costKnown} unreportedCalls={r.unreportedCalls} />
            </td>
            <td className="num">{formatDuration(r.durationMs)}</td>
            <td className="small">
              <time dateTime={r.startedAt}>
                {startedParts(r.startedAt).date} <span className="nowrap">{startedParts(r.startedAt).time}</span>
              </time>
            </td>
            {query.evaluator ? (
              <td className="num" data-testid="row-score">
                {scores.get(r.id)?.get(query.evaluator)?.score?.toFixed(2) ?? '—'}
              </td>
            ) : null}
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
  );
}
