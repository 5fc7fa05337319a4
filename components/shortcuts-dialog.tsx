'use client';
/** "?" opens the list of keyboard shortcuts (a modal dialog: focus stays in it, Escape closes it). */
import { useEffect, useRef } from 'react';
import { isTyping } from './is-typing';

const SHORTCUTS: ReadonlyArray<readonly [string, string]> = [
  ['?', 'show this list'],
  ['Tab (first)', 'skip to the page content, past the navigation'],
  ['j / k', 'next / previous row on Runs and Approvals'],
  ['Enter', 'open the row (or link) that has the focus'],
  ['a / d', 'approve / deny the request (on a request, or the focused row of the queue): the reason box takes the focus, Enter decides'],
  ['j / k', 'next / previous request, on a request’s page'],
  ['← / →', 'previous / next transition in a replay'],
  ['Home / End', 'first / last transition in a replay'],
  ['Escape', 'close this list'],
];

export function ShortcutsDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const dialog = ref.current;
      if (!dialog || dialog.open) return;
      e.preventDefault();
      dialog.showModal();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <dialog ref={ref} className="shortcuts" aria-labelledby="shortcuts-title" data-testid="shortcuts">
      <h2 id="shortcuts-title" style={{ marginTop: 0 }}>
        Keyboard shortcuts
      </h2>
      <dl className="kv">
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} style={{ display: 'contents' }}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog" style={{ marginTop: '1rem' }}>
        <button type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
