/**
 * Per-session weakness flags chosen in the MCP handshake, for transports without a URL to carry
 * `?weaknesses=` (stdio). The client names the flags it wants in its initialize request's
 * capabilities (`experimental["stockroom.dev/weaknesses"].requested`); a server started to allow it
 * (`--session-weaknesses`) builds the session with them and states them in its initialize result,
 * where the client confirms them before use. A server that does not allow it ignores the request
 * and states its own flags, so the client's confirmation refuses the mismatch, naming the flags.
 *
 * The server is built only once the initialize request has arrived: PeekingTransport holds that
 * first message, and hands it to the server when the server connects.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { WEAKNESS_FLAGS, type WeaknessFlag } from '../../harness';
import { WEAKNESS_CAPABILITY_KEY } from './protocol';

/** The client capability asking for flags (what McpToolExecutor sends). */
export function requestedWeaknessCapability(flags: readonly string[]): Record<string, { [key: string]: unknown }> {
  return { [WEAKNESS_CAPABILITY_KEY]: { requested: [...flags].sort() } };
}

/**
 * The flags an initialize request asks for: null when it does not ask, an error naming the bad
 * entries when any is not a weakness flag.
 */
export function requestedWeaknesses(message: JSONRPCMessage): { ok: true; weaknesses: WeaknessFlag[] | null } | { ok: false; message: string } {
  const params = 'method' in message && message.method === 'initialize' ? (message as { params?: unknown }).params : undefined;
  const experimental = (params as { capabilities?: { experimental?: Record<string, unknown> } } | undefined)?.capabilities?.experimental;
  const raw = (experimental?.[WEAKNESS_CAPABILITY_KEY] as { requested?: unknown } | undefined)?.requested;
  if (raw === undefined) return { ok: true, weaknesses: null };
  if (!Array.isArray(raw)) return { ok: false, message: `capabilities.experimental["${WEAKNESS_CAPABILITY_KEY}"].requested must be an array of weakness flags` };
  const bad = raw.filter((f) => typeof f !== 'string' || !(WEAKNESS_FLAGS as readonly string[]).includes(f));
  if (bad.length > 0) return { ok: false, message: `unknown weakness flag(s) ${bad.map((b) => JSON.stringify(b)).join(', ')}; allowed: ${WEAKNESS_FLAGS.join(', ')}` };
  return { ok: true, weaknesses: [...new Set(raw as WeaknessFlag[])].sort() };
}

/** A transport whose first message can be read before anything is connected to it. */
export class PeekingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private held: { message: JSONRPCMessage; extra?: MessageExtraInfo }[] = [];
  private connected = false;

  constructor(private readonly inner: Transport) {}

  /** Starts the inner transport and resolves with its first message (null when it closes first). */
  first(): Promise<JSONRPCMessage | null> {
    return new Promise((resolve, reject) => {
      this.inner.onmessage = (message, extra) => {
        if (this.connected) return this.onmessage?.(message, extra);
        this.held.push({ message, ...(extra ? { extra } : {}) });
        if (this.held.length === 1) resolve(message);
      };
      this.inner.onclose = () => {
        resolve(null);
        this.onclose?.();
      };
      this.inner.onerror = (error) => this.onerror?.(error);
      this.inner.start().catch(reject);
    });
  }

  /** Called by the server on connect: hands it the held messages, then passes the rest through. */
  async start(): Promise<void> {
    this.connected = true;
    const held = this.held.splice(0);
    // After connect() has installed its handlers (connectGuarded installs its guard after connect).
    setImmediate(() => {
      for (const { message, extra } of held) this.onmessage?.(message, extra);
    });
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
