'use client';
/**
 * Renders mermaid source to SVG. mermaid is loaded only in the browser and runs with
 * securityLevel 'strict'; its SVG output is the one place the app sets inner HTML, and the source
 * it draws is generated from fixed state names (lib/charts/state-diagram.ts), never run text.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useAfterIdle } from './use-after-idle';

let initialised: Promise<typeof import('mermaid').default> | null = null;

function loadMermaid() {
  initialised ??= import('mermaid').then(({ default: mermaid }) => {
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral', flowchart: { htmlLabels: false } });
    return mermaid;
  });
  return initialised;
}

export function MermaidDiagram({ source, label }: { source: string; label: string }) {
  const id = `m${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const ref = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [drawn, setDrawn] = useState(false);
  const renderCount = useRef(0);
  // mermaid (over a megabyte of script) loads at the first idle moment: evaluated at hydration it held up
  // what a person waits for on the same page (the span tree of a long run, issue 31).
  const idle = useAfterIdle();

  useEffect(() => {
    if (!idle) return;
    let cancelled = false;
    const n = ++renderCount.current;
    loadMermaid()
      .then((mermaid) => mermaid.render(`${id}-${n}`, source))
      .then(({ svg }) => {
        if (!cancelled && ref.current) {
          ref.current.innerHTML = svg;
          setDrawn(true);
          setError(null);
        }
      })
      .catch((err: unknown) => {
        if (!cancelled) setError(err instanceof Error ? err.message : 'diagram failed to render');
      });
    return () => {
      cancelled = true;
    };
  }, [id, source, idle]);

  // The canvas keeps the diagram's shape before mermaid (loaded on demand) has drawn it, so the page
  // does not jump; on a phone it keeps a readable size and scrolls sideways inside its box.
  return (
    <figure className="diagram" aria-label={label} style={{ margin: 0 }}>
      <div className="diagram-canvas" data-drawn={drawn ? 'true' : 'false'}>
        <div ref={ref} data-testid="state-diagram" />
        {!drawn && !error ? (
          <p className="muted small diagram-placeholder" data-testid="diagram-placeholder">
            Drawing the state diagram…
          </p>
        ) : null}
      </div>
      {error ? <p className="field-error">Diagram error: {error}</p> : null}
    </figure>
  );
}
