'use client';
/** Light, dark or the system's setting (the default); next-themes remembers the choice per browser. */
import { useTheme } from 'next-themes';
import { useSyncExternalStore } from 'react';

const NEXT: Record<string, string> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<string, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

// True once hydrated: the saved theme is only known in the browser.
const noop = () => () => {};
const useHydrated = () => useSyncExternalStore(noop, () => true, () => false);

export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  const hydrated = useHydrated();
  const current = hydrated && theme && theme in NEXT ? theme : 'system';
  return (
    <button type="button" onClick={() => setTheme(NEXT[current]!)} title="Switch between the system's colours, light and dark" data-testid="theme-toggle">
      {LABEL[current]}
    </button>
  );
}
