'use client';
/** What every notification endpoint form asks alike: whom it reaches, which events, and a field's refusal. */
import { WEBHOOK_EVENTS } from '@/lib/schemas/webhooks';

/** A field's refusal from the server, under it (`${prefix}-${field}-error`, what the input's aria-describedby names). */
export function FieldError({ prefix, field, fieldErrors }: { prefix: string; field: string; fieldErrors: Record<string, string[]> }) {
  return fieldErrors[field]?.length ? (
    <span className="field-error" id={`${prefix}-${field}-error`}>
      {fieldErrors[field]!.join(' ')}
    </span>
  ) : null;
}

/** The role the endpoint's notifications are for. */
export function ReachesField({ prefix }: { prefix: string }) {
  return (
    <div className="field">
      <label htmlFor={`${prefix}-role`}>Reaches</label>
      <select id={`${prefix}-role`} name="role" defaultValue="reviewer">
        <option value="reviewer">reviewers</option>
        <option value="admin">admins</option>
      </select>
    </div>
  );
}

/** The events it is sent (every one but run.ended at first). */
export function EventsFieldset({ prefix, fieldErrors }: { prefix: string; fieldErrors: Record<string, string[]> }) {
  return (
    <fieldset aria-describedby={fieldErrors.events ? `${prefix}-events-error` : undefined}>
      <legend>Events</legend>
      {WEBHOOK_EVENTS.map((e) => (
        <label key={e} style={{ marginRight: '1rem' }}>
          <input type="checkbox" name="events" value={e} defaultChecked={e !== 'run.ended'} /> {e}
        </label>
      ))}
      <FieldError prefix={prefix} field="events" fieldErrors={fieldErrors} />
    </fieldset>
  );
}
