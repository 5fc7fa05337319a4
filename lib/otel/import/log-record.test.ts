/**
 * Every ingest path applies the same text checks (issue 40): a log record's text — its event name,
 * attribute keys and values, and body — is refused when it holds an unpaired UTF-16 surrogate or a
 * NUL, naming the path, exactly as a span's is; the text itself is never echoed.
 */
import { describe, expect, it } from 'vitest';
import { importRefusal } from '../testing/import-refusal';
import { readOtlpLogsJson } from './log-record';
import { readOtlpJsonText } from './read-otlp';

const TRACE = '5b8efff798038103d269b633813fc60c';
const SPAN = 'eee19b7ec3c1b174';
const logs = (record: Record<string, unknown>) =>
  JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ traceId: TRACE, spanId: SPAN, timeUnixNano: '1700000000000000000', ...record }] }] }] });
const spans = (span: Record<string, unknown>) =>
  JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE, spanId: SPAN, name: 'chat', startTimeUnixNano: '1', endTimeUnixNano: '2', ...span }] }] }] });

const refusal = importRefusal;

describe('log records are held to the text checks spans are', () => {
  const LONE = 'before \ud800 after';
  it('refuses a lone surrogate in the event name, an attribute, an attribute key and the body, naming the path', () => {
    expect(refusal(() => readOtlpLogsJson(logs({ eventName: LONE })))).toMatch(/logRecords\[0\]\.eventName: holds an unpaired UTF-16 surrogate/);
    expect(refusal(() => readOtlpLogsJson(logs({ attributes: [{ key: 'gen_ai.prompt', value: { stringValue: LONE } }] })))).toMatch(/logRecords\[0\]\.attributes\[0\]\.value\.stringValue: holds an unpaired/);
    expect(refusal(() => readOtlpLogsJson(logs({ attributes: [{ key: LONE, value: { stringValue: 'x' } }] })))).toMatch(/attributes\[0\]\.key: holds an unpaired/);
    expect(refusal(() => readOtlpLogsJson(logs({ body: { stringValue: LONE } })))).toMatch(/logRecords\[0\]\.body\.stringValue: holds an unpaired/);
    expect(refusal(() => readOtlpLogsJson(logs({ eventName: 'a\u0000b' })))).toMatch(/eventName: holds a NUL/);
  });

  it('never echoes the refused text, and a span with the same text is refused the same way', () => {
    expect(refusal(() => readOtlpLogsJson(logs({ eventName: LONE })))).not.toContain('before');
    expect(refusal(() => readOtlpJsonText(spans({ name: LONE })))).toMatch(/name: holds an unpaired UTF-16 surrogate/);
  });

  it('keeps a well-formed record, its event name and a surrogate pair (an emoji) intact', () => {
    const { records } = readOtlpLogsJson(logs({ eventName: 'gen_ai.choice 😀', body: { stringValue: 'ok 😀' } }));
    expect(records).toHaveLength(1);
    expect(records[0]!.name).toBe('gen_ai.choice 😀');
    expect(records[0]!.attributes.body).toBe('ok 😀');
  });
});
