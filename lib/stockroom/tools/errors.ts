/**
 * Failures a Stockroom tool reports to the model. The dispatcher turns each into a structured
 * `{error, message}` result with the class's code (SPEC.md §7.1); none of them crash a run.
 */
import { HarnessError } from '../../harness';

/** Base of the tool failures; `code` is the result's `error` value. */
export class ToolError extends HarnessError {}

/** A business rule refused the request (unknown SKU, restock limits, …). */
export class BusinessRuleError extends ToolError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** A backend timed out; trying again later may succeed. */
export class TransientToolError extends ToolError {
  constructor(message: string) {
    super('transient', message);
  }
}

/** The arguments do not fit the tool's parameters (Python would raise TypeError/ValueError). */
export class BadArgumentsError extends ToolError {
  constructor(message: string) {
    super('bad_arguments', message);
  }
}
