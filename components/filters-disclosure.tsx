'use client';
/**
 * A page's filter form behind one control on a phone: 13 stacked filters (about 800 px) came before
 * the first run at 390 px. Wide screens show the form as before and no control (app/globals.css).
 */
import { useId, useState, type ReactNode } from 'react';

export function FiltersDisclosure({ active, children }: { active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className={`filters${open ? ' open' : ''}`}>
      <button type="button" className="filters-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)} data-testid="filters-toggle">
        {open ? 'Hide filters' : 'Filters'}
        {active > 0 ? ` (${active} set)` : ''}
      </button>
      <div id={id} className="filters-body">
        {children}
      </div>
    </div>
  );
}
