/**
 * An HTTP request body as a stream of chunks, gunzipped when the sender compressed it, stopping
 * with a 413 as soon as more than `maxBytes` (after decompression) have arrived: an oversized
 * payload is refused before it is held, and nothing from it is stored.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { TraceImportError } from '../errors';
import { DEFAULT_MAX_BODY_BYTES } from './limits';

/** OTLP_MAX_BODY_BYTES, or the default. */
export function maxBodyBytes(raw = process.env.OTLP_MAX_BODY_BYTES): number {
  const value = raw === undefined || raw.trim() === '' ? DEFAULT_MAX_BODY_BYTES : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_MAX_BODY_BYTES;
}

export async function* boundedBody(request: Request, maxBytes: number): AsyncGenerator<Uint8Array> {
  if (!request.body) throw new TraceImportError('body', 'the request has no body');
  const encoding = (request.headers.get('content-encoding') ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    throw new TraceImportError('content-encoding', `content-encoding '${encoding}' is not supported; send gzip or none`, 415);
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (encoding === 'identity' && declared > maxBytes) {
    throw new TraceImportError('body', `the body is ${declared} bytes; at most ${maxBytes} are accepted (OTLP_MAX_BODY_BYTES)`, 413);
  }
  let source: AsyncIterable<Uint8Array> = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>);
  if (encoding === 'gzip') source = (source as Readable).pipe(createGunzip());
  let total = 0;
  try {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) {
        throw new TraceImportError('body', `the body is larger than ${maxBytes} bytes${encoding === 'gzip' ? ' once decompressed' : ''} (OTLP_MAX_BODY_BYTES)`, 413);
      }
      yield chunk;
    }
  } catch (err) {
    if (err instanceof TraceImportError) throw err;
    throw new TraceImportError('body', `the body could not be read: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The whole bounded body (protobuf cannot be decoded in pieces). */
export async function boundedBuffer(request: Request, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of boundedBody(request, maxBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
