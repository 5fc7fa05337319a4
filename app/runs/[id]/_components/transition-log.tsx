'use client';
/**
 * Every transition of the run in a virtualised list; the current one is highlighted and kept in view.
 * Rows are measured after they render (a reason that wraps makes a row taller), so wrapped rows never
 * overlap the next one.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { ReplayFrame } from '@/lib/charts/replay-timeline';

// A one-line row's height in px, the virtualiser's guess before it measures the real row.
const ESTIMATED_ROW_PX = 30;

export function TransitionLog({
  frames,
  current,
  onSelect,
}: {
  frames: ReplayFrame[];
  current: number;
  onSelect: (frame: number) => void;
}) {
  const parent = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: frames.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 10,
  });
  useEffect(() => {
    virtual.scrollToIndex(current, { align: 'auto' });
  }, [current, virtual]);
  return (
    <div ref={parent} className="virtual-list" style={{ height: '16rem' }} data-testid="transition-log">
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((v) => {
          const f = frames[v.index]!;
          return (
            <button
              type="button"
              key={v.key}
              data-index={v.index}
              ref={virtual.measureElement}
              className={`log-item ${v.index === current ? 'active' : ''}`}
              aria-current={v.index === current ? 'step' : undefined}
              onClick={() => onSelect(v.index)}
              style={{ position: 'absolute', top: 0, left: 0, transform: `translateY(${v.start}px)` }}
            >
              <span className="muted mono">#{v.index + 1}</span>
              <span className="muted">step {f.step}</span>
              <span className="mono">
                {f.transition.from} → {f.transition.to}
              </span>
              <span className="muted small">{f.transition.reason}</span>
            </button>
          );
        })}
      </div>
    </div>
  );
}
