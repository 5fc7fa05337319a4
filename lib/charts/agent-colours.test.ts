import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { AGENT_PALETTE, PANEL_BACKGROUND, agentColour, contrastRatio } from './agent-colours';

describe('agent colours', () => {
  it('keep at least 4.5:1 against the panel in the light and the dark theme', () => {
    for (const c of AGENT_PALETTE) {
      expect(contrastRatio(c.light, PANEL_BACKGROUND.light), c.light).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(c.dark, PANEL_BACKGROUND.dark), c.dark).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('are told apart: no two agents of the palette share a colour', () => {
    expect(new Set(AGENT_PALETTE.map((c) => c.light)).size).toBe(AGENT_PALETTE.length);
    expect(new Set(AGENT_PALETTE.map((c) => c.dark)).size).toBe(AGENT_PALETTE.length);
  });

  it('repeat after the palette runs out and never fail on a bad index', () => {
    expect(agentColour(AGENT_PALETTE.length)).toEqual(agentColour(0));
    expect(agentColour(-1)).toEqual(agentColour(0));
    expect(agentColour(1.5)).toEqual(agentColour(0));
  });

  it('measure against the panels the stylesheet really draws', () => {
    const css = readFileSync('app/globals.css', 'utf8');
    const panels = [...css.matchAll(/--panel:\s*(#[0-9a-f]{6})/gi)].map((m) => m[1]!.toLowerCase());
    expect(panels).toEqual([PANEL_BACKGROUND.light, PANEL_BACKGROUND.dark]);
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
});
