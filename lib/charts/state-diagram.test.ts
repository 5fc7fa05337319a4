import { describe, expect, it } from 'vitest';
import { STATE_EDGES, stateDiagramSource } from './state-diagram';

describe('stateDiagramSource', () => {
  it('declares every harness state and every loop edge', () => {
    const src = stateDiagramSource({ current: null });
    for (const s of ['PLAN', 'CALL_MODEL', 'EXECUTE_TOOLS', 'OBSERVE', 'DONE', 'FAILED']) expect(src).toContain(`  ${s}`);
    expect(src.match(/-->/g)).toHaveLength(STATE_EDGES.length);
  });

  it('highlights only the current state', () => {
    const src = stateDiagramSource({ current: 'OBSERVE' });
    expect(src).toContain('class OBSERVE current');
    expect(src.match(/ current$/gm)).toHaveLength(1);
  });

  it('marks the edge just taken in the accent colour and earlier edges as taken', () => {
    const src = stateDiagramSource({
      current: 'OBSERVE',
      taken: [
        { from: 'PLAN', to: 'CALL_MODEL' },
        { from: 'CALL_MODEL', to: 'EXECUTE_TOOLS' },
        { from: 'EXECUTE_TOOLS', to: 'OBSERVE' },
      ],
      last: { from: 'EXECUTE_TOOLS', to: 'OBSERVE' },
    });
    expect(src).toContain('linkStyle 2 stroke:#1d4ed8,stroke-width:4px');
    expect(src).toContain('linkStyle 0 stroke:#475569');
    expect(src).toContain('linkStyle 4 stroke:#cbd5e1');
  });

  it('ignores a current state that is not a harness state', () => {
    const src = stateDiagramSource({ current: 'EVIL"];click PLAN call alert()' as never });
    expect(src).not.toContain('EVIL');
  });

  it('draws an unknown but valid transition instead of dropping it', () => {
    const src = stateDiagramSource({ current: 'DONE', taken: [{ from: 'PLAN', to: 'DONE' }] });
    expect(src).toContain('PLAN --> DONE');
  });
});
