'use client';
/**
 * The colour theme switch. It flips what is shown: on a light screen the first click gives dark,
 * whatever the system says (it used to cycle system → light → dark, so on a light system the first
 * click changed nothing). Flipping back to the system's own scheme follows the system again. The
 * label says what is shown and whether it is the system's; next-themes remembers the choice.
 */
import { useTheme } from 'next-themes';
import { useSyncExternalStore } from 'react';

// True once hydrated: the saved theme and the system's scheme are only known in the browser.
const noop = () => () => {};
const useHydrated = () => useSyncExternalStore(noop, () => true, () => false);

/** The theme to set when the shown scheme is flipped: the other scheme, or `system` when that is the system's. */
export function flippedTheme(shown: 'light' | 'dark', system: 'light' | 'dark' | undefined): 'light' | 'dark' | 'system' {
  const other = shown === 'dark' ? 'light' : 'dark';
  return other === system ? 'system' : other;
}

export function ThemeToggle() {
  const { theme, resolvedTheme, systemTheme, setTheme } = useTheme();
  const hydrated = useHydrated();
  if (!hydrated || (resolvedTheme !== 'light' && resolvedTheme !== 'dark')) {
    // Before hydration the scheme is unknown: a stable placeholder of the same size, not a wrong label.
    return (
      <button type="button" data-testid="theme-toggle" disabled>
        Theme
      </button>
    );
  }
  const shown = resolvedTheme;
  const following = theme === 'system' || theme === undefined;
  const other = shown === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={() => setTheme(flippedTheme(shown, systemTheme))}
      title={`Shown: ${shown}${following ? ", the system's setting" : ', chosen here'}. Click for ${other}.`}
      aria-label={`Theme: ${shown}${following ? ' (system)' : ''}. Switch to ${other}`}
      data-testid="theme-toggle"
    >
      {`Theme: ${shown}${following ? ' (system)' : ''}`}
    </button>
  );
}
