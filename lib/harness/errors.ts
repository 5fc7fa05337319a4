/** What a streamed model-call attempt that failed had received: its output text (bounded), and how much arrived in all. */
export interface StreamedPartial {
  /** The output that arrived (answer text and tool-call input, in order), at most the client's bound. */
  text: string;
  /** Characters of output that arrived in all (more than `text` holds when it was bounded). */
  chars: number;
  /** Stream events that arrived. */
  events: number;
}

/** One error base class for the harness library; subclasses carry a stable code and fields. */
export class HarnessError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** A configuration value was refused; `key` names it. */
export class ConfigError extends HarnessError {
  readonly key: string;
  constructor(key: string, message: string) {
    super('config_invalid', message);
    this.key = key;
  }
}

/** A dataset file failed validation; names the file, line (for JSONL) and field. */
export class DatasetError extends HarnessError {
  readonly file: string;
  readonly line: number | null;
  readonly field: string | null;
  constructor(file: string, message: string, details: { line?: number | null; field?: string | null } = {}) {
    const where = [file, details.line != null ? `line ${details.line}` : null, details.field ? `field ${details.field}` : null]
      .filter(Boolean)
      .join(', ');
    super('dataset_invalid', `${where}: ${message}`);
    this.file = file;
    this.line = details.line ?? null;
    this.field = details.field ?? null;
  }
}

/** A model client failed; the loop turns it into MODEL_ERROR. */
export class ModelCallError extends HarnessError {
  readonly kind: string;
  /** The usage the provider reported on an answer that could not be used (it was billed); absent: none reported. */
  readonly usage: { inputTokens: number; outputTokens: number } | undefined;
  /** A streamed attempt that failed part-way: what it had received (kept on the failure's record). */
  readonly partial: StreamedPartial | null;
  constructor(kind: string, message: string, options?: { cause?: unknown; usage?: { inputTokens: number; outputTokens: number }; partial?: StreamedPartial | null }) {
    super('model_call_failed', message, options);
    this.kind = kind;
    this.usage = options?.usage;
    this.partial = options?.partial ?? null;
  }
}

/** A tool executor could not reach its tools (transport down, timeout). */
export class ExecutorError extends HarnessError {
  readonly transport: string;
  constructor(transport: string, message: string, options?: { cause?: unknown }) {
    super('executor_failed', message, options);
    this.transport = transport;
  }
}
