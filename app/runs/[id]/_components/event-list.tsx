'use client';
/** Guard and compaction events of the whole run as typed timeline entries; click one to jump to its step. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { TimelineEvent } from '../load-timeline';

// What each refusal code means, in a sentence.
const BLOCK_NOTE: Record<string, string> = {
  refused_by_guardrail: 'The run’s guardrails forbid this tool, so the call never ran.',
  blocked_by_guard: 'The call was not grounded in the request, so it never ran.',
  halted_by_guard: 'The guard halted the run at this call.',
  denied_by_policy: 'The governance policy denies this call.',
  approval_denied: 'A reviewer denied the approval request.',
  approval_expired: 'The approval request expired before anyone decided it.',
  approval_stale: 'What was approved no longer matched the call, so it was refused.',
};

/** How a guardrail event reads at a glance: stopped or refused (bad), contained or retried (warn), checked (good). */
export function guardrailTone(action: string): 'bad' | 'warn' | 'good' {
  if (action === 'refused' || action === 'violated' || action === 'failed' || action === 'judge_failed') return 'bad';
  if (action === 'passed') return 'good';
  return 'warn';
}

export function EventList({ events, currentStep, onJump }: { events: TimelineEvent[]; currentStep: number; onJump: (step: number) => void }) {
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: events.length, getScrollElement: () => parent.current, estimateSize: () => 56, overscan: 6 });
  if (events.length === 0) return <p className="muted small">No guard or policy stopped or blocked anything in this run, and nothing was compacted.</p>;
  return (
    <div ref={parent} className="virtual-list" style={{ maxHeight: '14rem' }} data-testid="event-list">
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => {
          const e = events[v.index]!;
          const here = e.step === currentStep;
          return (
            <button
              type="button"
              key={v.key}
              data-index={v.index}
              ref={virtual.measureElement}
              className={`log-item ${here ? 'active' : ''}`}
              onClick={() => onJump(e.step)}
              style={{ position: 'absolute', top: 0, left: 0, transform: `translateY(${v.start}px)`, flexDirection: 'column', alignItems: 'flex-start' }}
            >
              {e.kind === 'guard' ? (
                <>
                  <span>
                    <span className="badge bad">{e.reason}</span> guard <strong>{e.guard}</strong> at step {e.step}
                  </span>
                  <span className="small muted">{e.detail}</span>
                </>
              ) : e.kind === 'guardrail' ? (
                <>
                  <span>
                    <span className={`badge ${guardrailTone(e.action)}`}>{e.action.toUpperCase()}</span> guardrail <strong>{e.guardrail}</strong> at step {e.step}
                  </span>
                  <span className="small muted">{e.detail}</span>
                </>
              ) : e.kind === 'tool_session' ? (
                <>
                  <span>
                    <span className="badge info">NEW SESSION</span> with tool server <strong>{e.server}</strong> for <span className="mono">{e.tool}</span> at step {e.step}
                  </span>
                  <span className="small muted">{e.detail}</span>
                </>
              ) : e.kind === 'blocked' ? (
                <>
                  <span>
                    <span className="badge bad">BLOCKED</span> {e.guard === 'policy' ? 'the policy' : <>guard <strong>{e.guard}</strong></>} refused{' '}
                    <span className="mono">{e.tool}</span> at step {e.step}
                  </span>
                  <span className="small muted">{BLOCK_NOTE[e.code] ?? e.code} The run went on; the model was told why.</span>
                </>
              ) : (
                <span>
                  <span className="badge warn">COMPACTION</span> step {e.step}: {e.resultsSummarised} result(s) summarised, {e.tokensBefore} →{' '}
                  {e.tokensAfter} tokens
                </span>
              )}
            </button>
          );
        })}
      </div>
    </div>
  );
}
