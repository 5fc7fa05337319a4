'use client';
/** Copies the page's current address (which carries the position on screen) and says so. */
import { useState } from 'react';

export function CopyLinkButton({ label = 'Copy link' }: { label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="row small" style={{ display: 'inline-flex' }}>
      <button type="button" onClick={() => void copy()} data-testid="copy-link">
        {label}
      </button>
      <span role="status" className="muted">
        {state === 'copied' ? 'Link copied.' : state === 'failed' ? 'Could not copy: select the address bar and copy it.' : ''}
      </span>
    </span>
  );
}
