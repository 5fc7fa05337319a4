'use client';
/**
 * A tool's arguments or result as a collapsible JSON tree (react-json-view-lite renders values as
 * text, never as HTML). Text that is not whole JSON — a truncated preview — stays plain text.
 */
import { useTheme } from 'next-themes';
import { JsonView, allExpanded, darkStyles, defaultStyles } from 'react-json-view-lite';
import 'react-json-view-lite/dist/index.css';

/** JSON.parse that says whether it worked instead of throwing. */
export function parseJsonText(text: string): { ok: true; value: object } | { ok: false } {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/**
 * Which nodes start open: the root (react-json-view-lite's level 0) and `levels` levels below it, so
 * the default of 1 shows a result's rows (`[{sku: …}]`) and folds what is nested inside them.
 */
export function expandedUpTo(levels: number | 'all'): (level: number) => boolean {
  return levels === 'all' ? allExpanded : (level) => level <= levels;
}

/** `expandLevels`: how many levels below the root start open (the root always does), or 'all'. */
export function JsonTree({ value, label, expandLevels = 1 }: { value: object; label: string; expandLevels?: number | 'all' }) {
  const { resolvedTheme } = useTheme();
  return (
    <div className="json-tree" data-testid="json-tree">
      <JsonView
        data={value}
        style={resolvedTheme === 'dark' ? darkStyles : defaultStyles}
        shouldExpandNode={expandedUpTo(expandLevels)}
        clickToExpandNode
        aria-label={label}
      />
    </div>
  );
}
