'use client';
/**
 * The run as a collapsible tree of agents beside the waterfall: each agent in its own colour with its
 * rollup, its bars nested under it on the run's time axis, its sub-agents under it where they ran.
 * Clicking a row (or Enter on it) moves the replay to its step. The WAI-ARIA tree pattern: one tab
 * stop, arrows move and open/close, Home/End; virtualised, so a 5,000-span run draws at once.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { ancestorsOf, initiallyOpen, pathLabel, rollupParts, treeKey, visibleRows, type AgentBar, type AgentView, type SpanTreeNode } from '@/lib/charts/agent-tree';
import { ENTERED_LABELS } from '@/lib/charts/agent-graph';
import { agentColour } from '@/lib/charts/agent-colours';
import { formatDuration } from '@/lib/format/units';

// A one-line row's height in px, the virtualiser's guess before it measures the real row.
const ESTIMATED_ROW_PX = 28;
// The tree's box (22rem at the default type size): the rows drawn in the page's HTML, before the browser can measure it.
const TREE_HEIGHT_REM = 22;
const INITIAL_RECT = { width: 0, height: TREE_HEIGHT_REM * 16 };

/** What the tree draws: its roots (lib/charts/agent-tree.ts), the bars among them, the axis and the run's bar count. */
export interface SpanTreeData {
  roots: SpanTreeNode[];
  bars: readonly AgentBar[];
  axisMs: number;
  barCount: number;
}

/** The inline colour variables of an agent (app/globals.css `.agent-coloured` picks the theme's). */
export function agentStyle(colour: number): CSSProperties {
  const c = agentColour(colour);
  return { ['--agent-light' as string]: c.light, ['--agent-dark' as string]: c.dark };
}

const ms = (v: number | null) => (v === null ? 'not recorded' : formatDuration(v));
const usd = (v: number | null) => (v === null ? 'cost unknown' : v === 0 ? '$0' : `$${v < 0.0001 ? v.toExponential(2) : v.toFixed(4)}`);

function stepOf(node: SpanTreeNode): number | null {
  return node.kind === 'agent' ? node.firstStep : node.bar.step;
}

export function SpanTree({
  agents,
  tree,
  partial = false,
  colours,
  currentStep,
  onSelectStep,
}: {
  agents: readonly AgentView[];
  /** The whole tree, or (`partial`) the rows shown at first, sent with the page while the waterfall loads. */
  tree: SpanTreeData;
  partial?: boolean;
  /** Colour number by agent path (lib/charts/agent-graph.ts colourByPath). */
  colours: ReadonlyMap<string, number>;
  currentStep: number;
  /** The replay moves to `step` (of `agent`, when the node is an agent's or one of its bars). */
  onSelectStep: (step: number, agent: number | null) => void;
}) {
  const { roots, bars, axisMs, barCount } = tree;
  const [open, setOpen] = useState<Set<string>>(() => initiallyOpen(roots, barCount));
  const rows = useMemo(() => visibleRows(roots, open), [roots, open]);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const focusAt = Math.max(0, focusKey === null ? 0 : rows.findIndex((r) => r.node.key === focusKey));
  const parent = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef(false);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => parent.current, estimateSize: () => ESTIMATED_ROW_PX, overscan: 12, initialRect: INITIAL_RECT });

  // The replay moved: open the way to the step's first bar and keep it in view.
  const firstOfStep = useMemo(() => bars.find((b) => b.step === currentStep) ?? null, [bars, currentStep]);
  useEffect(() => {
    if (!firstOfStep) return;
    const way = ancestorsOf(roots, `bar-${firstOfStep.index}`);
    setOpen((o) => (way.every((k) => o.has(k)) ? o : new Set([...o, ...way])));
  }, [firstOfStep, roots]);
  const rowOfStep = firstOfStep ? rows.findIndex((r) => r.node.key === `bar-${firstOfStep.index}`) : -1;
  useEffect(() => {
    if (rowOfStep >= 0) virtual.scrollToIndex(rowOfStep, { align: 'auto' });
  }, [rowOfStep, virtual]);

  // After a key moved focus, focus the row once the virtualiser has drawn it.
  useEffect(() => {
    if (!pendingFocus.current) return;
    const el = parent.current?.querySelector<HTMLElement>(`[data-key="${rows[focusAt]?.node.key ?? ''}"]`);
    if (el) {
      el.focus({ preventScroll: true });
      pendingFocus.current = false;
    }
  });

  const toggle = (key: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const select = (node: SpanTreeNode) => {
    const step = stepOf(node);
    if (step !== null) onSelectStep(step, node.kind === 'agent' ? node.agent.id : (node.bar.agent ?? null));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const row = rows[focusAt];
    if (!row) return;
    if (e.key === 'Enter' || e.key === ' ') {
      select(row.node);
    } else {
      const move = treeKey(rows, focusAt, e.key);
      if (!move) return;
      if (move.toggle) toggle(move.toggle);
      setFocusKey(rows[move.focus]?.node.key ?? null);
      virtual.scrollToIndex(move.focus, { align: 'auto' });
      pendingFocus.current = true;
    }
    // The replay's own arrow keys step through transitions: inside the tree they belong to the tree.
    e.preventDefault();
    e.stopPropagation();
  };

  const axis = Math.max(1, axisMs);
  return (
    <div>
      <p className="small muted" style={{ marginTop: 0 }}>
        {agents.length} agents. Arrow keys move through the tree and open or close an agent; Enter (or a click) moves the replay there.
        {partial ? <span data-testid="span-tree-partial"> The calls of the agents not open yet are loading.</span> : null}
      </p>
      <div
        ref={parent}
        className="virtual-list span-tree"
        style={{ height: `${TREE_HEIGHT_REM}rem` }}
        role="tree"
        aria-label="Span tree: the run's agents and their calls"
        data-testid="span-tree"
        onKeyDown={onKeyDown}
      >
        <div role="presentation" style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            const node = row.node;
            const colour = colours.get(node.colourKey) ?? 0;
            const here = node.kind === 'bar' ? node.bar.step === currentStep : false;
            const common = {
              'data-index': v.index,
              'data-key': node.key,
              ref: virtual.measureElement,
              role: 'treeitem',
              'aria-level': row.level,
              'aria-posinset': row.posInSet,
              'aria-setsize': row.setSize,
              'aria-selected': here,
              tabIndex: v.index === focusAt ? 0 : -1,
              onFocus: () => setFocusKey(node.key),
              style: { ...agentStyle(colour), position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${v.start}px)`, ['--level' as string]: row.level - 1 } as CSSProperties,
            } as const;
            if (node.kind === 'agent') {
              const a = node.agent;
              return (
                <div {...common} key={node.key} aria-expanded={row.expanded} className="tree-row agent-row agent-coloured" data-testid="tree-agent" data-agent={pathLabel(a.path)} onClick={() => select(node)}>
                  <span
                    className="tree-toggle"
                    aria-hidden="true"
                    onClick={(e) => {
                      e.stopPropagation();
                      toggle(node.key);
                    }}
                  >
                    {row.expanded ? '▾' : '▸'}
                  </span>
                  <span className="agent-swatch" aria-hidden="true" />
                  <span className="tree-name">
                    <strong>{a.name}</strong>{' '}
                    <span className="muted small">
                      {ENTERED_LABELS[a.entered]}
                      {a.parallel ? ' · in parallel' : ''}
                    </span>
                    <span className="tree-rollup small" data-testid="agent-rollup">
                      {rollupParts(a.rollup, formatDuration).join(' · ')}
                    </span>
                  </span>
                </div>
              );
            }
            const b = node.bar;
            const left = (b.offsetMs / axis) * 100;
            const width = Math.max((b.widthMs / axis) * 100, 0.3);
            return (
              <div
                {...common}
                key={node.key}
                className={`tree-row bar-row agent-coloured${here ? ' active' : ''}`}
                data-testid="tree-bar"
                data-step={b.step}
                data-kind={b.kind}
                onClick={() => select(node)}
                title={`${b.label} · step ${b.step} · ${ms(b.durationMs)}${b.tokens !== null ? ` · ${b.tokens} tokens · ${usd(b.costUsd)}` : ''}`}
              >
                <span className="tree-toggle" aria-hidden="true" />
                <span className="tree-name">
                  <span className="muted">{b.step}</span> {b.label}
                </span>
                <span className="waterfall-track" aria-hidden="true">
                  <span className={`waterfall-bar agent-bar${b.error ? ' error' : ''}${b.placement === 'ordered' ? ' ordered' : ''}`} style={{ left: `${left}%`, width: `${width}%` }} />
                </span>
                <span className="tree-figures small">
                  {b.kind === 'guard' || b.kind === 'compaction' ? 'event' : ms(b.durationMs)}
                  {b.tokens !== null ? ` · ${b.tokens.toLocaleString('en')} tok · ${usd(b.costUsd)}` : ''}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
