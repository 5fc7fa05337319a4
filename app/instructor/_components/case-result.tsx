'use client';
/** One case under no weakness and under the chosen switches: the scores that moved, the tools called, the answers. */
import Link from 'next/link';
import type { RunOneResult } from '@/lib/runs/summary';
import { TerminationBadge } from '@/components/termination-badge';
import { countOf } from '@/lib/format/units';
import { MarkdownText } from '@/components/markdown-text';
import { CASE_TOKEN_NOISE_FRACTION, caseMoved } from '@/lib/charts/matrix-view';

const SCORE_LABELS: Record<string, string> = {
  toolSelection: 'Tool selection',
  argumentCorrectness: 'Arguments',
  answerCorrectnessDeterministic: 'Answer correct',
  terminationMatch: 'Termination as expected',
  mustNotCallOk: 'No forbidden tool',
  loopFindings: 'Loop findings',
  inputTokens: 'Input tokens',
};

/** What each score measures, in the course's terms (SPEC §12), under its name on the card. */
export const SCORE_MEANINGS: Record<string, string> = {
  toolSelection: '1 when the case’s expected call sequence was matched by name (course §12.3), else 0 — however often the tool was called',
  argumentCorrectness: 'share of the expected calls matched in that sequence with the expected arguments (course §12.4); 0 when the sequence did not match',
  answerCorrectnessDeterministic: 'the answer holds every expected fact and no forbidden one (course §12.5)',
  terminationMatch: 'the run ended the way the case expects',
  mustNotCallOk: 'no executed call was one the case forbids',
  loopFindings: 'repeated identical calls found in the trajectory',
  inputTokens: 'input tokens summed over the run’s model calls; the run’s total elsewhere adds the output tokens',
};

/** Scores where a rise is worse (naive_retry's loops, oversized_payload's tokens). */
const LOWER_IS_BETTER = new Set(['loopFindings', 'inputTokens']);

const show = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? v.toLocaleString('en') : v.toFixed(2)) : v === true ? 'yes' : v === false ? 'no' : '—');

/**
 * What a card says under its number: both values whenever they differ, "unchanged" only when they are
 * equal, and what is missing when a score was not recorded. A token count that moved less than the
 * listing threshold says so — and, on a deterministic model, that the difference is exact, not noise.
 */
function changeText(key: string, baseline: unknown, value: unknown, moved: boolean, deterministic: boolean): string {
  if (baseline === undefined || value === undefined) return 'not recorded for one of the runs';
  if (JSON.stringify(baseline) === JSON.stringify(value)) return 'unchanged';
  const was = `was ${show(baseline)} with no weakness`;
  if (moved) return was;
  const threshold = `below the ${Math.round(CASE_TOKEN_NOISE_FRACTION * 100)}% a case's ${SCORE_LABELS[key]?.toLowerCase() ?? key} must move to be listed as moved`;
  return deterministic ? `${was}: an exact difference (the model is deterministic), ${threshold}` : `${was}: ${threshold}`;
}

/** A case run; a governed one also says whether it paused, and for which request. */
type CaseRun = RunOneResult & { status?: string; approvalId?: string | null };

function Column({ title, run }: { title: string; run: CaseRun }) {
  return (
    <div className="panel">
      <h3 style={{ marginTop: 0 }}>{title}</h3>
      {run.approvalId ? (
        <p className="alert warn" data-testid="instructor-waits">
          Paused: its write waits for a person instead of happening. <Link href={`/approvals/${run.approvalId}`}>Open the approval request</Link>
        </p>
      ) : null}
      <div className="row">
        {run.status === 'paused' ? (
          <span className="badge info">waiting for approval</span>
        ) : (
          <TerminationBadge reason={run.terminationReason} blocked={run.toolCalls.filter((c) => c.status.startsWith('blocked:')).length} />
        )}{' '}
        <span className="muted">{countOf(run.steps, 'step')}</span>
        <Link href={`/runs/${run.runId}`}>replay step by step</Link>
      </div>
      <p>
        Tools called:{' '}
        {run.toolCalls.length === 0
          ? 'none'
          : run.toolCalls.map((c, i) => (
              <span key={i} className={`badge ${c.status === 'ok' ? 'good' : 'bad'}`} style={{ marginRight: 4 }}>
                {c.name}
                {c.status === 'ok' ? '' : ` (${c.status})`}
              </span>
            ))}
      </p>
      <MarkdownText text={run.finalAnswer} />
    </div>
  );
}

/** `deterministic`: both runs used the scripted fake model, so every rerun is identical to the token. */
export function CaseResult({ baseline, current, label, deterministic }: { baseline: CaseRun; current: CaseRun; label: string; deterministic: boolean }) {
  const keys = Object.keys(SCORE_LABELS);
  return (
    <section aria-label="Case result" data-testid="instructor-case-result">
      <h2>
        3. What moved under <span data-testid="result-label">{label}</span>
      </h2>
      {baseline.scores && current.scores && deterministic ? (
        <p className="small muted" data-testid="exact-note">
          The fake model is deterministic: a rerun gives the same scores and tokens, so every difference below is exact.
        </p>
      ) : null}
      {baseline.scores && current.scores ? (
        <div className="metric-cards">
          {keys.map((k) => {
            const b = (baseline.scores as Record<string, unknown>)[k];
            const c = (current.scores as Record<string, unknown>)[k];
            // The matrix's rule: token counts move only past the noise threshold.
            const moved = caseMoved(k, b, c);
            const fell = typeof c === 'number' && typeof b === 'number' ? c < b : c === false;
            const worse = moved && (LOWER_IS_BETTER.has(k) ? !fell : fell);
            return (
              <div key={k} className={`metric-card ${moved ? `delta ${worse ? 'worse' : 'better'}` : ''}`} data-score={k}>
                <div className="label">{SCORE_LABELS[k]}</div>
                <div className="small muted" data-testid="score-meaning">
                  {SCORE_MEANINGS[k]}
                </div>
                <div className="big-number">{show(c)}</div>
                <div className="small" data-testid="score-change">
                  {changeText(k, b, c, moved, deterministic)}
                </div>
              </div>
            );
          })}
        </div>
      ) : null}
      <div className="grid-2" style={{ marginTop: '1rem' }}>
        <Column title="No weakness" run={baseline} />
        <Column title={label} run={current} />
      </div>
      <p>
        <Link className="button" href={`/compare?a=${baseline.runId}&b=${current.runId}`}>
          Compare the two trajectories step by step
        </Link>
      </p>
    </section>
  );
}
