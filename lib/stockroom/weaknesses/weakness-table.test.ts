import { describe, expect, it } from 'vitest';
import { WEAKNESS_FLAGS } from '../../harness/config';
import { loopSwitchesFor, modelHabitsFor, WEAKNESSES } from './weakness-table';

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
});
