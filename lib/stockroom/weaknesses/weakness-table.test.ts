import { describe, expect, it } from 'vitest';
import { WEAKNESS_FLAGS } from '../../harness/config';
import { formatWeaknessLegend, loopSwitchesFor, modelHabitsFor, switchesOf, WEAKNESS_ORDER, WEAKNESSES, weaknessLegend } from './weakness-table';

describe('the weakness table', () => {
  it('has one entry, with words for the pages, for every flag the configuration accepts', () => {
    expect(Object.keys(WEAKNESSES).sort()).toEqual([...WEAKNESS_FLAGS].sort());
    for (const flag of WEAKNESS_FLAGS) {
      expect(WEAKNESSES[flag].help.length).toBeGreaterThan(0);
      expect(WEAKNESSES[flag].description.length).toBeGreaterThan(0);
      // A flag that switches something in the harness or the model says so in words too.
      if (WEAKNESSES[flag].loopOff.length > 0) expect(WEAKNESSES[flag].harness).not.toBeNull();
      if (WEAKNESSES[flag].modelOn.length > 0) expect(WEAKNESSES[flag].model).not.toBeNull();
    }
  });

  it('leaves every loop switch on and every model habit off with no flag', () => {
    expect(loopSwitchesFor([])).toEqual({ repeatedCallGuard: true, quarantine: true });
    expect(modelHabitsFor([])).toEqual({ naiveRetry: false, followsInjections: false });
  });

  it('turns the repeated-call guard off under naive_retry, unless the run keeps it on with the repeated_call guard', () => {
    expect(loopSwitchesFor(['naive_retry'])).toEqual({ repeatedCallGuard: false, quarantine: true });
    expect(loopSwitchesFor(['naive_retry'], ['repeated_call'])).toEqual({ repeatedCallGuard: true, quarantine: true });
    expect(modelHabitsFor(['naive_retry'])).toEqual({ naiveRetry: true, followsInjections: false });
  });

  it('turns quarantine off and has the model follow injections under injection_unguarded', () => {
    expect(loopSwitchesFor(['injection_unguarded'])).toEqual({ repeatedCallGuard: true, quarantine: false });
    expect(modelHabitsFor(['injection_unguarded'])).toEqual({ naiveRetry: false, followsInjections: true });
  });

  it('switches nothing in the loop or the model for the flags that only change the environment', () => {
    expect(loopSwitchesFor(['ambiguous_tool_desc', 'oversized_payload'])).toEqual(loopSwitchesFor([]));
    expect(modelHabitsFor(['oversized_payload'])).toEqual(modelHabitsFor([]));
  });

  it('combines flags: each one switches its own part', () => {
    expect(loopSwitchesFor(['naive_retry', 'injection_unguarded'])).toEqual({ repeatedCallGuard: false, quarantine: false });
    expect(modelHabitsFor(['injection_unguarded', 'naive_retry'])).toEqual({ naiveRetry: true, followsInjections: true });
  });

  it('keeps the published order of the flags, so the matrix rows and the course figures do not move', () => {
    expect(WEAKNESS_ORDER).toEqual(['ambiguous_tool_desc', 'oversized_payload', 'naive_retry', 'injection_unguarded']);
  });

  it('says in words what each flag switches, from its loop switches and model habits', () => {
    expect(switchesOf('naive_retry')).toBe('environment, repeated-call guard off, model re-issues a failed call');
    expect(switchesOf('injection_unguarded')).toBe('quarantine off, model follows planted instructions');
    expect(switchesOf('oversized_payload')).toBe('environment');
  });

  it("gives the matrix's legend one row a flag, with the table's own description", () => {
    expect(weaknessLegend().map((r) => r.flag)).toEqual([...WEAKNESS_ORDER]);
    expect(weaknessLegend().find((r) => r.flag === 'oversized_payload')?.description).toBe(WEAKNESSES.oversized_payload.description);
    const lines = formatWeaknessLegend().split('\n');
    expect(lines).toHaveLength(WEAKNESS_ORDER.length);
    expect(lines[2]).toMatch(/^naive_retry +\(environment, repeated-call guard off, model re-issues a failed call\)  The legacy order shard/);
  });
});
