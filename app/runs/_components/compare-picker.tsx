'use client';
/**
 * "Pick two to compare": a checkbox on each run row and a bar that opens compare with the two picked
 * (the first picked is A). A third cannot be picked until one is let go, so what opens is always
 * exactly what is ticked.
 */
import Link from 'next/link';
import { createContext, useContext, useState, type ReactNode } from 'react';

interface Picked {
  ids: string[];
  toggle: (id: string) => void;
}

const PickedContext = createContext<Picked>({ ids: [], toggle: () => {} });

/** Holds the picked runs for the checkboxes and the bar inside it. */
export function ComparePicker({ children }: { children: ReactNode }) {
  const [ids, setIds] = useState<string[]>([]);
  const toggle = (id: string) => setIds((cur) => (cur.includes(id) ? cur.filter((x) => x !== id) : cur.length < 2 ? [...cur, id] : cur));
  return <PickedContext.Provider value={{ ids, toggle }}>{children}</PickedContext.Provider>;
}

/** The checkbox of one row; `label` names the run for screen readers. */
export function PickRun({ id, label }: { id: string; label: string }) {
  const { ids, toggle } = useContext(PickedContext);
  const picked = ids.includes(id);
  return (
    <input
      type="checkbox"
      checked={picked}
      disabled={!picked && ids.length >= 2}
      onChange={() => toggle(id)}
      aria-label={`Pick run ${label} to compare`}
      data-testid="pick-run"
    />
  );
}

/** What is picked, and the link to compare the two. */
export function CompareBar() {
  const { ids } = useContext(PickedContext);
  return (
    <div className="row small compare-bar" role="status" data-testid="compare-bar">
      <span>
        {ids.length === 0
          ? 'Tick two runs to compare them.'
          : ids.length === 1
            ? `Run ${ids[0]!.slice(-8)} picked as A; tick one more.`
            : `A: ${ids[0]!.slice(-8)}, B: ${ids[1]!.slice(-8)}.`}
      </span>
      {ids.length === 2 ? (
        <Link className="button primary" href={`/compare?a=${ids[0]}&b=${ids[1]}`} data-testid="compare-picked">
          Compare the two
        </Link>
      ) : null}
    </div>
  );
}
