/**
 * The mutable bookkeeping of one run: state, step, messages, trajectory, transitions, usage. The
 * loop changes it only through these methods, and everything in it ends up in the RunResult.
 */
import type { GuardVerdict } from '../guards/verdict';
import type {
  CallTime,
  Checkpoint,
  Exchange,
  HarnessState,
  Message,
  ModelResponse,
  TerminationReason,
  ToolRecord,
  TrajectoryStep,
  Transition,
  Usage,
  UsageEstimate,
} from '../types';
import { userMessage } from './messages';
import { momentTime, type Instant } from './timing';
import { addCallUsage, emptyUsage } from './usage';

export class RunState {
  state: HarnessState = 'PLAN';
  step = 0;
  messages: Message[];
  trajectory: TrajectoryStep[] = [];
  records: ToolRecord[] = [];
  transitions: Transition[] = [];
  usage: Usage = emptyUsage();
  modelInputs: { step: number; messages: Message[] }[] = [];
  exchanges: Exchange[] = [];
  termination: TerminationReason = 'COMPLETED';
  finalAnswer = '';
  invalidCount = 0;
  checkpoint: Checkpoint | null = null;
  /** Extra turns the guardrails have given the agent so far. */
  guardrailRetries = 0;
  /** Empty answers in a row: the first is asked again, the second stops the run (EMPTY_ANSWER). */
  emptyAnswers = 0;

  /** Reads the run's timeline (timing.ts); absent, events carry no time. */
  readonly now: (() => Instant) | undefined;

  constructor(query: string, now?: () => Instant) {
    this.messages = [userMessage(query)];
    this.now = now;
  }

  move(to: HarnessState, reason: string): void {
    this.transitions.push({ step: this.step, from: this.state, to, reason });
    this.state = to;
  }

  /** Adds one of the agent's model turns to the usage (estimate: a local count when it reported none). */
  addResponse(r: ModelResponse, estimate?: UsageEstimate | null): void {
    addCallUsage(this.usage, 'agent', r, true, estimate);
  }

  /** A guard verdict that stops the run: event, termination reason, final answer, FAILED. */
  stopWith(v: Extract<GuardVerdict, { stop: true }>, time?: CallTime): void {
    const at = time ?? (this.now ? momentTime(this.now()) : undefined);
    this.trajectory.push({ kind: 'guard', step: this.step, guard: v.guard, reason: v.reason, detail: v.detail, ...(at ? { time: at } : {}) });
    this.termination = v.reason;
    this.finalAnswer = `I had to stop before finishing (${v.reason}): ${v.detail}.`;
    this.move('FAILED', `guard:${v.guard}`);
  }
}
