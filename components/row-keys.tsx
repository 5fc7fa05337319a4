'use client';
/**
 * List navigation: j and k move to the next and previous row of a table (the row's own link takes
 * the focus, so Enter opens it and Tab goes on from there). Used by Runs and Approvals; listed in the
 * "?" overlay.
 */
import { useEffect } from 'react';
import { isTyping } from './is-typing';

/** `table` is the data-testid of the table whose rows' `a[data-row-link]` are stepped through. */
export function RowKeys({ table }: { table: string }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== 'j' && e.key !== 'k') || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const links = [...document.querySelectorAll<HTMLAnchorElement>(`[data-testid="${table}"] tbody a[data-row-link]`)];
      if (links.length === 0) return;
      const active = document.activeElement;
      const at = links.findIndex((a) => a === active || (active !== null && a.closest('tr')?.contains(active)));
      const next = at === -1 ? 0 : e.key === 'j' ? Math.min(links.length - 1, at + 1) : Math.max(0, at - 1);
      links[next]!.focus();
      links[next]!.scrollIntoView({ block: 'nearest' });
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [table]);
  return null;
}
