import { describe, expect, it } from 'vitest';
import { reasonBoxKey, reviewKeyAction } from './review-keys';

const press = (key: string, extra: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; typing: boolean }> = {}) => ({ key, altKey: false, ctrlKey: false, metaKey: false, typing: false, ...extra });

describe('a reviewer’s keys', () => {
  it('d arms the denial (the reason box takes the focus) even with a reason written; a approves at once only with a reason', () => {
    expect(reviewKeyAction(press('d'), '')).toEqual({ kind: 'arm', verdict: 'deny' });
    expect(reviewKeyAction(press('d'), 'overstocked')).toEqual({ kind: 'arm', verdict: 'deny' });
    expect(reviewKeyAction(press('a'), '  ')).toEqual({ kind: 'arm', verdict: 'approve' });
    expect(reviewKeyAction(press('a'), 'supplier confirmed')).toEqual({ kind: 'decide', verdict: 'approve' });
  });

  it('j and k move to the next and previous request', () => {
    expect(reviewKeyAction(press('j'), '')).toEqual({ kind: 'move', by: 1 });
    expect(reviewKeyAction(press('k'), '')).toEqual({ kind: 'move', by: -1 });
  });

  it('leaves keys typed into a field, and keys with a modifier, alone', () => {
    expect(reviewKeyAction(press('a', { typing: true }), 'ok ok')).toBeNull();
    expect(reviewKeyAction(press('d', { ctrlKey: true }), '')).toBeNull();
    expect(reviewKeyAction(press('a', { metaKey: true }), '')).toBeNull();
    expect(reviewKeyAction(press('x'), '')).toBeNull();
  });

  it('in the reason box, Enter decides the armed verdict once the reason is long enough; Shift+Enter is a new line; Escape disarms', () => {
    expect(reasonBoxKey({ key: 'Enter', shiftKey: false }, 'deny', 'overstocked')).toEqual({ kind: 'decide', verdict: 'deny' });
    expect(reasonBoxKey({ key: 'Enter', shiftKey: false }, 'approve', 'ok')).toEqual({ kind: 'too-short' });
    expect(reasonBoxKey({ key: 'Enter', shiftKey: true }, 'deny', 'overstocked')).toBeNull();
    expect(reasonBoxKey({ key: 'Enter', shiftKey: false }, null, 'overstocked')).toBeNull();
    expect(reasonBoxKey({ key: 'Escape', shiftKey: false }, 'deny', '')).toEqual({ kind: 'disarm' });
  });
});
