import { describe, expect, it } from 'vitest';
import { QUARANTINE_MARKER } from '../harness/tunables';
import { displayJson, messageItems } from './message-view';

describe('messageItems', () => {
  it('turns text, tool use and tool result blocks into typed items in order', () => {
    const items = messageItems([
      { role: 'user', content: [{ text: 'Find widgets' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'search_products', input: { query: 'widgets' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ json: { results: [] } }], status: 'success' } }] },
    ]);
    expect(items.map((i) => i.kind)).toEqual(['text', 'tool_use', 'tool_result']);
    expect(items[1]).toMatchObject({ name: 'search_products', input: '{\n  "query": "widgets"\n}' });
    expect(items[2]).toMatchObject({ status: 'success', compacted: false, quarantined: 0 });
  });

  it('flags a compaction summary', () => {
    const summary = '[compacted search_products result: {"results": [... (2048 chars total)]';
    const [item] = messageItems([{ role: 'user', content: [{ toolResult: { toolUseId: 't', content: [{ text: summary }], status: 'success' } }] }]);
    expect(item).toMatchObject({ kind: 'tool_result', compacted: true });
  });

  it('counts quarantine markers inside a JSON result', () => {
    const json = { text: `intro\n\n${QUARANTINE_MARKER}\n\nmore\n\n${QUARANTINE_MARKER}` };
    const [item] = messageItems([{ role: 'user', content: [{ toolResult: { toolUseId: 't', content: [{ json }], status: 'success' } }] }]);
    expect(item).toMatchObject({ quarantined: 2 });
  });

  it('keeps markup as literal text', () => {
    const [item] = messageItems([{ role: 'user', content: [{ text: '<script>alert(1)</script>' }] }]);
    expect(item).toEqual({ kind: 'text', role: 'user', text: '<script>alert(1)</script>' });
  });

  it('keeps blocks it does not recognise instead of dropping them', () => {
    const items = messageItems([{ role: 'user', content: [{ image: { format: 'png' } }] }, 'stray']);
    expect(items.map((i) => i.kind)).toEqual(['unknown', 'unknown']);
  });
});

describe('displayJson', () => {
  it('pretty-prints values and leaves strings alone', () => {
    expect(displayJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(displayJson('plain')).toBe('plain');
  });
});
