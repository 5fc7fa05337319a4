'use client';
/** The classroom "large type" switch: scales every rem on the page, remembered per browser. */
import { useEffect, useSyncExternalStore } from 'react';

const KEY = 'stockroom.largeType';
const EVENT = 'stockroom:large-type';

function subscribe(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

const readSaved = () => window.localStorage.getItem(KEY) === '1';

export function LargeTypeToggle() {
  // The server renders normal type; the browser's saved choice takes over after hydration.
  const on = useSyncExternalStore(subscribe, readSaved, () => false);
  useEffect(() => {
    document.documentElement.classList.toggle('large-type', on);
  }, [on]);
  const toggle = () => {
    window.localStorage.setItem(KEY, on ? '0' : '1');
    window.dispatchEvent(new Event(EVENT));
  };
  return (
    <button type="button" onClick={toggle} aria-pressed={on} title="Larger text for projecting">
      {on ? 'Normal type' : 'Large type'}
    </button>
  );
}
