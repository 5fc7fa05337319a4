/** One error base for notifications: a stable code, the field at fault when a setting is refused. */
export class NotifyError extends Error {
  constructor(
    readonly code: 'invalid_setting' | 'target_refused' | 'secret_unreadable',
    message: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'NotifyError';
  }
}
