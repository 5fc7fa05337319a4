'use client';
/**
 * A tool's arguments or result as a collapsible JSON tree (react-json-view-lite renders values as
 * text, never as HTML). Text that is not whole JSON — a truncated preview — stays plain text.
 * Colours come from the page palette (the `.jt-*` classes in app/globals.css), not the library's
 * light and dark themes, whose value colours fall below AA contrast on our panels (its dark strings,
 * rgb(203, 75, 22), on the dark panel; its light booleans on white).
 */
import { JsonView, allExpanded, defaultStyles } from 'react-json-view-lite';
import { Allow, parse as parsePartial } from 'partial-json';
import 'react-json-view-lite/dist/index.css';

/** The library's layout classes with our palette's colours: one style for light and dark alike. */
const PALETTE_STYLES: typeof defaultStyles = {
  ...defaultStyles,
  container: `${defaultStyles.container} jt-container`,
  label: `${defaultStyles.label} jt-label`,
  clickableLabel: `${defaultStyles.clickableLabel} jt-label`,
  punctuation: `${defaultStyles.punctuation} jt-text`,
  nullValue: 'jt-null',
  undefinedValue: 'jt-null',
  stringValue: 'jt-string',
  numberValue: 'jt-number',
  booleanValue: 'jt-boolean',
  otherValue: 'jt-text',
  expandIcon: `${defaultStyles.expandIcon} jt-text`,
  collapseIcon: `${defaultStyles.collapseIcon} jt-text`,
  collapsedContent: `${defaultStyles.collapsedContent} jt-text`,
};

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
 * The whole values at the start of JSON text that was cut off (a stored result's preview): objects and
 * arrays are closed where the text ends, and a string or number the cut went through is left out
 * rather than shown shortened as if it were the value.
 */
export function parsePartialJsonText(text: string): { ok: true; value: object } | { ok: false } {
  try {
    const value: unknown = parsePartial(text, Allow.ALL & ~Allow.STR & ~Allow.NUM);
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
  return (
    <div className="json-tree" data-testid="json-tree">
      <JsonView
        data={value}
        style={PALETTE_STYLES}
        shouldExpandNode={expandedUpTo(expandLevels)}
        clickToExpandNode
        aria-label={label}
      />
    </div>
  );
}
