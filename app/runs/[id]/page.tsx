/** Replay of one stored run: header from the server, the step-by-step player on the client. */
import { requireUser } from '@/lib/auth/page-guard';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getRunSummary, getRunTaint } from '@/lib/db/runs/runs-read';
import { budgetFromConfig } from '@/lib/charts/replay-timeline';
import { StoredIdSchema } from '@/lib/schemas/run-id';
import { TerminationBadge } from '@/components/termination-badge';
import { UngovernedBadge } from '@/components/governance-badge';
import { runTenant } from '@/lib/db/governance/tenant-scope';
import { ImportedBadge } from '@/components/imported-badge';
import { DeleteRunButton } from '../_components/delete-run-button';
import { EraseRunButton } from '../_components/erase-run-button';
import { loadTimeline, loadTimelineHead, type Timeline } from './load-timeline';
import { packTimeline } from '@/lib/charts/timeline-codec';
import { agentReplayOf } from '@/lib/charts/agent-frames';
import { loadTreeStart } from './load-tree-start';
import { replayPosition, type ReplayPosition } from '@/lib/charts/replay-position';
import { Replay } from './_components/replay';
import { timelineUrl, waterfallUrl } from './waterfall-url';
import { GovernancePanel } from './_components/governance-panel';
import { getDb } from '@/lib/db/core/client';
import { approvalsForRuns } from '@/lib/db/governance/governance-approvals';
import { findGovernedRun } from '@/lib/db/governance/governance-runs';
import { currentBinding } from '@/lib/runs/governed-binding';
import { failedWritesOfRuns, requestOutcomes } from '@/lib/runs/request-view';
import type { RequestOutcome } from '@/lib/governance/request-outcome';
import { countOf, formatDuration } from '@/lib/format/units';
import { holdsRole } from '@/lib/auth/authorize';
import { MarkdownText } from '@/components/markdown-text';
import { PromptLeakNote } from '@/components/finding-notes';
import { systemPromptLeak } from '@/lib/eval/planted-text';
import { FollowRun } from './_components/follow-run';
import { isLiveStatus } from '@/lib/format/run-status';
import { RunningBadge } from '@/components/running-badge';
import { CostText } from '@/components/cost-text';
import { formatTokens } from '@/lib/format/cost';
import { ReplayAgainst } from './_components/replay-against';
import { TaintNotice } from './_components/taint-notice';
import { hasRecordedExchanges } from '@/lib/db/runs/run-recordings';
import { pickableProviders } from '@/lib/runs/model-choice';
import { currentLabelSet, labelsOfRun, unverifiedLabels } from '@/lib/db/review/labels';
import { scoresOfRun } from '@/lib/db/review/run-scores';
import { ScoresPanel } from './_components/scores-panel';
import { listGoldenSets, runForDraftOrThrow } from '@/lib/db/review/golden-sets';
import { draftGoldenCase } from '@/lib/eval/golden-sets';
import { goldenCaseOfRun } from '@/lib/runs/datasets';
import { AddGoldenCase } from './_components/add-golden-case';
import { SetAsideNotice } from './_components/set-aside-notice';
import { RedactionNotice } from '@/components/redaction-notice';
import { PAYLOAD_WRAPPER_NAMES, RUN_GUARD_NAMES, WEAKNESS_FLAGS } from '@/lib/harness/config';
import { GuardrailsSchema, guardrailsOn } from '@/lib/harness/guardrails/config';

export const dynamic = 'force-dynamic';

/** The guardrails a stored run ran under, by name (none when its configuration records none). */
function guardrailsOfConfig(config: unknown): string[] {
  const c = config !== null && typeof config === 'object' ? (config as { guardrails?: unknown }) : {};
  const parsed = GuardrailsSchema.safeParse(c.guardrails);
  return parsed.success ? guardrailsOn(parsed.data) : [];
}

/** Whether a replay link lands past the transitions a head of the skeleton holds. */
function pastHead(at: ReplayPosition, head: Timeline): boolean {
  if (at === null) return false;
  if ('transition' in at) return at.transition > head.transitions.length;
  return at.step > (head.transitions.at(-1)?.step ?? 0);
}

/** The stored run's flags, guards and wrappers, keeping only names this harness knows. */
function settingsOf(weaknesses: readonly string[], config: unknown) {
  const c = (config ?? {}) as { guards?: unknown; payloadWrappers?: unknown };
  const known = <T extends string>(names: readonly T[], value: unknown): T[] => (Array.isArray(value) ? names.filter((n) => value.includes(n)) : []);
  return { weaknesses: known(WEAKNESS_FLAGS, weaknesses), guards: known(RUN_GUARD_NAMES, c.guards), payloadWrappers: known(PAYLOAD_WRAPPER_NAMES, c.payloadWrappers) };
}

export default async function RunPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ step?: string | string[]; transition?: string | string[] }> }) {
  const [user, { id }, { transition, step }] = await Promise.all([requireUser(), params, searchParams]);
  const parsed = StoredIdSchema.safeParse(id);
  if (!parsed.success) notFound();
  // Another tenant's run is answered exactly like a missing one; nothing of it is read before this check.
  if ((await runTenant(parsed.data)) !== user.tenant) notFound();
  const isOperator = holdsRole(user.memberships, 'operator');
  // The page's reads are independent of each other: one round of queries, not one after another.
  const [run, read, governed, labelSet, labels, unverified, recorded, taint, scores] = await Promise.all([
    getRunSummary(parsed.data),
    loadTimelineHead(parsed.data),
    findGovernedRun(getDb().prisma, parsed.data),
    currentLabelSet(user.tenant),
    labelsOfRun(user.tenant, parsed.data),
    unverifiedLabels(user.tenant, parsed.data),
    isOperator ? hasRecordedExchanges(parsed.data) : Promise.resolve(false),
    getRunTaint(parsed.data),
    scoresOfRun(user.tenant, parsed.data),
  ]);
  if (!run) notFound();
  // A run of several agents replays all their transitions as one log (the stored log is the root agent's).
  const agentReplay = agentReplayOf(run.agents, run.durationMs);
  // One word per thing: `?transition=N` opens the replay at transition N (1-based, what the slider
  // counts); `?step=N` at the first transition of harness step N (what the panels and compare count).
  const initialAt = replayPosition(transition, step);
  // A long run's page carries the head of its skeleton and the replay fetches the rest after it; the
  // whole is read here only for a run that is followed live (its newest step is shown), a run of several
  // agents (whose log is built from all their transitions) or a link to a place past the head.
  const whole = read.rest !== null && (isLiveStatus(run.status) || agentReplay !== null || pastHead(initialAt, read.head));
  const stored = whole ? await loadTimeline(run.id) : read.head;
  const rest = whole ? null : read.rest;
  const timeline = agentReplay ? { ...stored, transitions: agentReplay.transitions } : stored;
  const budget = budgetFromConfig(run.config);
  const requests = governed ? ((await approvalsForRuns(getDb().prisma, [run.id])).get(run.id) ?? []) : [];
  // A reviewer's wait is time the run spent, but not the harness's work: said apart, never folded into one figure.
  const approvalWaitMs = requests.reduce((sum, r) => sum + (r.decidedAt ? Math.max(0, Date.parse(r.decidedAt) - Date.parse(r.createdAt)) : 0), 0);
  const pendingTool = requests.find((r) => r.status === 'pending')?.proposal.tool ?? null;
  // Where each request is; a paused run whose request was decided no longer waits for a reviewer.
  const canCurate = run.status === 'finished' && holdsRole(user.memberships, 'operator', user.tenant);
  // A run of several agents: its span tree's first rows go with the HTML (issue 31), so the tree is on
  // screen and works once the page is hydrated instead of after the waterfall's fetch and its shaping.
  const treeOf = agentReplay && timeline.transitions.length > 0;
  const [[outcomes, failedWrites], binding, goldenSets, draftSource, treeStart] = await Promise.all([
    governed ? Promise.all([requestOutcomes(requests), failedWritesOfRuns([run.id])]) : ([new Map<string, RequestOutcome>(), new Map<string, number>()] as const),
    governed ? currentBinding(run.id, requests[0]?.proposal.tool ?? '') : null,
    canCurate ? listGoldenSets(user.tenant).then((sets) => sets.map((s) => s.name)) : ([] as string[]),
    canCurate ? runForDraftOrThrow(user.tenant, run.id) : null,
    treeOf ? loadTreeStart(run.id, user.tenant, agentReplay.views) : null,
  ]);
  const lastRequest = requests.at(-1);
  const decidedWhilePaused = run.status === 'paused' && !pendingTool && lastRequest ? (outcomes.get(lastRequest.id) ?? null) : null;
  const drafted = draftSource ? draftGoldenCase(draftSource, goldenCaseOfRun(user.tenant, run)) : null;
  const draft = drafted?.record ?? null;
  // "Replay against…" needs recorded exchanges (live-model runs) and an operator; not while the run still runs.
  const replayable = run.status === 'finished' && isOperator && recorded;

  return (
    <main className="page">
      {/* The waterfall (and the rest of a multi-agent run's span tree) is fetched by the replay once hydrated;
          a preload link in the HTML starts it as the page arrives, not when React reads its payload (a run
          with nothing to replay draws no waterfall, so nothing is asked for). Same URL, mode and credentials
          as components/fetch-json.ts's fetch, so the browser reuses the answer. */}
      {timeline.transitions.length > 0 ? <link rel="preload" href={waterfallUrl(run.id, agentReplay ? 'all' : 0)} as="fetch" crossOrigin="anonymous" /> : null}
      {rest ? <link rel="preload" href={timelineUrl(run.id)} as="fetch" crossOrigin="anonymous" /> : null}
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1>
          Run <span className="mono">{run.id.slice(-8)}</span>
        </h1>
        {/* Compare is rendered per request: prefetching it would render it on every replay opened. */}
        <div className="row">
          {run.caseId && run.setting !== 'none' ? (
            <Link className="button" href={`/compare?a=${run.id}&with=none`} data-testid="compare-no-weakness" prefetch={false}>
              Compare with this case under no weakness
            </Link>
          ) : null}
          <Link className="button" href={`/compare?a=${run.id}`} prefetch={false}>
            Compare with…
          </Link>
          <a className="button" href={`/api/runs/${run.id}/export`} download data-testid="download-run">
            Download JSON
          </a>
          {holdsRole(user.memberships, 'admin', user.tenant) ? <EraseRunButton runId={run.id} /> : null}
          {holdsRole(user.memberships, 'operator') ? <DeleteRunButton runId={run.id} after="/runs" /> : null}
        </div>
      </div>
      <section className="panel" aria-label="Run summary">
        <p style={{ marginTop: 0, fontSize: '1.1rem' }} data-testid="run-query">
          {run.query}
        </p>
        <div className="row small">
          {decidedWhilePaused ? (
            <span className={`badge ${decidedWhilePaused.tone}`} data-testid="request-outcome">
              {decidedWhilePaused.text}
            </span>
          ) : run.status === 'paused' ? (
            <span className="badge info">waiting for approval</span>
          ) : isLiveStatus(run.status) ? (
            <RunningBadge status={run.status} />
          ) : (
            <TerminationBadge reason={run.terminationReason} blocked={run.blockedCount} failedWrites={failedWrites.get(run.id) ?? 0} />
          )}
          <UngovernedBadge governed={run.governed} />
          <ImportedBadge source={run.source} />
          {run.caseId ? <span className="badge info">case {run.caseId}</span> : null}
          {run.category ? <span className="badge">{run.category}</span> : null}
          {run.tags.map((t) => (
            <Link key={t} href={`/runs?tag=${encodeURIComponent(t)}`} className="badge" data-testid="run-tag" title={`runs tagged ${t}`}>
              tag: {t}
            </Link>
          ))}
          <span className="badge">setting: {run.setting}</span>
          <span className="badge">{run.transport}</span>
          {guardrailsOfConfig(run.config).length > 0 ? (
            <span className="badge info" data-testid="run-guardrails" title="The guardrails this run ran under (its recorded configuration)">
              guardrails: {guardrailsOfConfig(run.config).join(', ')}
            </span>
          ) : null}
          <span className="muted">
            {run.datasetName} · {countOf(run.steps, 'step')} · {countOf(run.modelCallCount, 'model call')} · {countOf(run.toolCallCount, 'tool call')} ·{' '}
            <span data-testid="run-tokens">{formatTokens(run.totalTokens, run.unreportedCalls, run.unreportedCalls > 0 && run.unreportedCalls >= run.modelCallCount && run.totalTokens === 0)}</span> ·{' '}
            <CostText usd={run.costUsd} known={run.costKnown} note={run.costNote} unreportedCalls={run.unreportedCalls} /> ·{' '}
            <span data-testid="run-duration" title="Wall-clock time the harness worked on the run; a wait for a reviewer is not in it">
              {formatDuration(run.durationMs)} harness time (wall clock)
            </span>
            {approvalWaitMs > 0 ? (
              <span data-testid="run-approval-wait">
                {' '}
                · {formatDuration(approvalWaitMs)} waiting for approval (not in the harness time)
              </span>
            ) : null}
          </span>
        </div>
        {taint ? <TaintNotice runId={run.id} taint={taint} governed={run.governed} /> : null}
        <FollowRun runId={run.id} status={run.status} steps={run.steps} canStop={holdsRole(user.memberships, 'operator')} />
        <h3>Final answer</h3>
        {isLiveStatus(run.status) ? (
          <p className="muted" data-testid="final-answer">
            {run.status === 'queued' ? 'No answer yet: the run waits for a worker to take it.' : 'No answer yet: the run is still running.'}
          </p>
        ) : decidedWhilePaused ? (
          <p className="muted" data-testid="final-answer">
            No answer yet: {decidedWhilePaused.text}. It answers once the run has resumed.
          </p>
        ) : run.status === 'paused' ? (
          <p className="muted" data-testid="final-answer">
            No answer yet: the run is paused until a reviewer decides
            {pendingTool ? (
              <>
                {' '}
                on <span className="mono">{pendingTool}</span>
              </>
            ) : null}
            . It answers once the approval is decided.
          </p>
        ) : (
          <>
            <PromptLeakNote leak={systemPromptLeak(run.finalAnswer, run.systemPrompt)} where="The final answer" />
            <MarkdownText text={run.finalAnswer} testId="final-answer" />
          </>
        )}
      </section>
      <SetAsideNotice setAside={run.setAside} />
      <RedactionNotice redactions={run.redactions} />
      {draft ? (
        <AddGoldenCase
          runId={run.id}
          sets={goldenSets}
          basis={drafted!.basis}
          warning={drafted!.warning}
          draft={{
            id: draft.id,
            category: draft.category,
            query: draft.query,
            referenceAnswer: draft.reference_answer,
            expectedTools: draft.expected_tools.map((t) => ({ name: t.name, args: t.args as Record<string, unknown> })),
            expectedFacts: draft.expected_facts,
          }}
        />
      ) : null}
      {replayable ? <ReplayAgainst runId={run.id} initial={settingsOf(run.weaknesses, run.config)} modelProviders={pickableProviders()} /> : null}
      {governed ? <GovernancePanel paused={run.status === 'paused'} requests={requests} outcomes={Object.fromEntries(outcomes)} binding={binding} policyVersion={governed.policyVersion} lastError={governed.lastError} /> : null}
      <ScoresPanel scores={scores} />
      <Replay
        runId={run.id}
        packed={packTimeline(timeline)}
        rest={rest}
        budget={budget}
        terminationReason={run.terminationReason}
        initialAt={initialAt}
        following={isLiveStatus(run.status)}
        agents={agentReplay ? { views: agentReplay.views, agentOf: agentReplay.agentOf, runDurationMs: agentReplay.runDurationMs, treeStart } : null}
        labelling={{
          labelSet: { version: labelSet.version, verdicts: labelSet.verdicts, categories: labelSet.categories },
          labels: labels.map((l) => ({ id: l.id, step: l.step, verdict: l.verdict, category: l.category, score: l.score, comment: l.comment, createdByName: l.createdByName, createdAt: l.createdAt })),
          canLabel: holdsRole(user.memberships, 'reviewer', user.tenant),
          unverified,
        }}
      />
    </main>
  );
}
