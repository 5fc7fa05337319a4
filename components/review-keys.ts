/**
 * A reviewer's keys, on a request and in the approval queue: `a` approve, `d` deny, `j`/`k` the
 * next and previous request. A decision needs a reason: `d` arms the denial and puts the focus in
 * the reason box (Enter there denies, Escape disarms); `a` approves at once when a reason is
 * already written, else arms the approval the same way. Pure: the components only wire it up.
 */
import { MIN_REASON_CHARS } from '@/lib/schemas/reason-limits';

export type Verdict = 'approve' | 'deny';
export type ReviewKeyAction = { kind: 'arm'; verdict: Verdict } | { kind: 'decide'; verdict: Verdict } | { kind: 'move'; by: 1 | -1 } | null;

export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** The key went to a form control being typed in: it is text, never a shortcut. */
  typing: boolean;
}

export function reviewKeyAction(e: KeyPress, reason: string): ReviewKeyAction {
  if (e.altKey || e.ctrlKey || e.metaKey || e.typing) return null;
  switch (e.key) {
    case 'a':
      return reason.trim().length >= MIN_REASON_CHARS ? { kind: 'decide', verdict: 'approve' } : { kind: 'arm', verdict: 'approve' };
    case 'd':
      // A denial is explained to the run: the reason box always takes the focus first.
      return { kind: 'arm', verdict: 'deny' };
    case 'j':
      return { kind: 'move', by: 1 };
    case 'k':
      return { kind: 'move', by: -1 };
    default:
      return null;
  }
}

/** In the reason box: Enter (without Shift) decides the armed verdict once the reason is long enough; Escape disarms. */
export function reasonBoxKey(e: { key: string; shiftKey: boolean }, armed: Verdict | null, reason: string): { kind: 'decide'; verdict: Verdict } | { kind: 'disarm' } | { kind: 'too-short' } | null {
  if (e.key === 'Escape' && armed) return { kind: 'disarm' };
  if (e.key !== 'Enter' || e.shiftKey || !armed) return null;
  return reason.trim().length >= MIN_REASON_CHARS ? { kind: 'decide', verdict: armed } : { kind: 'too-short' };
}
