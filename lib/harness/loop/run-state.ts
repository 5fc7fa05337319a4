/**
 * The mutable bookkeeping of one run: state, step, messages, trajectory, transitions, usage. The
 * loop changes it only through these methods, and everything in it ends up in the RunResult.
 */
import type { GuardVerdict } from '../guards/verdict';
import type {
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
} from '../types';
import { userMessage } from './messages';

export class RunState {
  state: HarnessState = 'PLAN';
  step = 0;
  messages: Message[];
  trajectory: TrajectoryStep[] = [];
  records: ToolRecord[] = [];
  transitions: Transition[] = [];
  usage: Usage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, perCall: [] };
  modelInputs: { step: number; messages: Message[] }[] = [];
  exchanges: Exchange[] = [];
  termination: TerminationReason = 'COMPLETED';
  finalAnswer = '';
  invalidCount = 0;
  checkpoint: Checkpoint | null = null;
  /** Extra turns the guardrails have given the agent so far. */
  guardrailRetries = 0;

  constructor(query: string) {
    this.messages = [userMessage(query)];
  }

  move(to: HarnessState, reason: string): void {
    this.transitions.push({ step: this.step, from: this.state, to, reason });
    this.state = to;
  }

  addResponse(r: ModelResponse): void {
    this.usage.modelCalls += 1;
    this.usage.inputTokens += r.inputTokens;
    this.usage.outputTokens += r.outputTokens;
    this.usage.totalTokens = this.usage.inputTokens + this.usage.outputTokens;
    if (r.cachedTokens !== undefined) {
      this.usage.cachedTokens = (this.usage.cachedTokens ?? 0) + r.cachedTokens;
      this.usage.perCall.push({ inputTokens: r.inputTokens, outputTokens: r.outputTokens, cachedTokens: r.cachedTokens });
    } else {
      this.usage.perCall.push({ inputTokens: r.inputTokens, outputTokens: r.outputTokens });
    }
  }

  /** A guard verdict that stops the run: event, termination reason, final answer, FAILED. */
  stopWith(v: Extract<GuardVerdict, { stop: true }>): void {
    this.trajectory.push({ kind: 'guard', step: this.step, guard: v.guard, reason: v.reason, detail: v.detail });
    this.termination = v.reason;
    this.finalAnswer = `I had to stop before finishing (${v.reason}): ${v.detail}.`;
    this.move('FAILED', `guard:${v.guard}`);
  }
}
