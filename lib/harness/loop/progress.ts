/**
 * Live progress: the run so far handed to the `onStep` observer (before the first model call and
 * after every step that leaves the run going), as a snapshot with status `running`. Best effort:
 * an observer that fails never stops the run, whose finished record is stored whole either way.
 */
import type { Driver } from './options';
import { runResult, type RunIdentity } from './result';
import type { RunState } from './run-state';

export async function reportStep(d: Driver, run: RunState, id: RunIdentity): Promise<void> {
  if (!d.options.onStep) return;
  try {
    // A copy: the run goes on changing its arrays while the observer stores this snapshot.
    await d.options.onStep(structuredClone({ ...runResult(d, run, id), status: 'running' }));
  } catch {
    // Progress is best effort.
  }
}
