/**
 * Each agent of a run in its own colour, in the light and the dark theme. The colours mark an agent's
 * swatch, its tree rows and its bars; every one keeps at least 4.5:1 against the panel of its theme
 * (agent-colours.test.ts measures it), so it also reads as text and the bars hold the 3:1 that
 * WCAG 1.4.11 asks of graphics. Beyond eight agents the colours repeat; the name is always beside it.
 */

export interface AgentColour {
  light: string;
  dark: string;
}

/** The panel backgrounds the colours are drawn on (app/globals.css `--panel`, light and dark). */
export const PANEL_BACKGROUND = { light: '#ffffff', dark: '#161d27' } as const;

export const AGENT_PALETTE: readonly AgentColour[] = [
  { light: '#1d4ed8', dark: '#8ab4ff' }, // blue
  { light: '#b45309', dark: '#fcd34d' }, // amber
  { light: '#047857', dark: '#6ee7b7' }, // green
  { light: '#7e22ce', dark: '#d8b4fe' }, // purple
  { light: '#be123c', dark: '#fda4af' }, // rose
  { light: '#0e7490', dark: '#67e8f9' }, // cyan
  { light: '#4d7c0f', dark: '#bef264' }, // lime
  { light: '#9d174d', dark: '#f9a8d4' }, // pink
];

/** The colour of the agent drawn `n`-th (0-based) in the run's agent graph. */
export function agentColour(n: number): AgentColour {
  const i = Number.isInteger(n) && n >= 0 ? n % AGENT_PALETTE.length : 0;
  return AGENT_PALETTE[i]!;
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
