'use client';
/** The classroom "large type" switch: scales every rem on the page, remembered per browser. */
import { useEffect, useState } from 'react';

const KEY = 'stockroom.largeType';

export function LargeTypeToggle() {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const saved = window.localStorage.getItem(KEY) === '1';
    setOn(saved);
    document.documentElement.classList.toggle('large-type', saved);
  }, []);
  const toggle = () => {
    const next = !on;
    setOn(next);
    document.documentElement.classList.toggle('large-type', next);
    window.localStorage.setItem(KEY, next ? '1' : '0');
  };
  return (
    <button type="button" onClick={toggle} aria-pressed={on} title="Larger text for projecting">
      {on ? 'Normal type' : 'Large type'}
    </button>
  );
}
