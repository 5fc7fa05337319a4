'use client';
/** Guard and compaction events of the whole run as typed timeline entries; click one to jump to its step. */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { TimelineEvent } from '../load-timeline';

export function EventList({ events, currentStep, onJump }: { events: TimelineEvent[]; currentStep: number; onJump: (step: number) => void }) {
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: events.length, getScrollElement: () => parent.current, estimateSize: () => 56, overscan: 6 });
  if (events.length === 0) return <p className="muted small">No guard stopped this run and nothing was compacted.</p>;
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
