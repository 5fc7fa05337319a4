/**
 * A stdio client transport that starts the server with exactly the environment it is given. The
 * SDK's StdioClientTransport always merges its own inherited list (HOME, LOGNAME, PATH, SHELL,
 * TERM, USER) under the given env, so a configured server would see variables it never declared;
 * this one spawns the same way (argv, no shell, piped stdio) with the env as given, and speaks the
 * same newline-delimited JSON-RPC through the SDK's own ReadBuffer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How long a child may take to exit after its stdin closes, and again after SIGTERM. */
const EXIT_GRACE_MS = 2_000;

export interface ExactEnvCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export class ExactEnvStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The child's stderr, available before start() so no early output is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly spec: ExactEnvCommand) {}

  start(): Promise<void> {
    if (this.child) throw new Error('ExactEnvStdioTransport already started');
    return new Promise((resolve, reject) => {
      // Exactly these variables (NodeJS.ProcessEnv is widened by Next to require NODE_ENV; the child needs none).
      const env = { ...this.spec.env } as NodeJS.ProcessEnv;
      const child: ChildProcess = spawn(this.spec.command, this.spec.args, { env, ...(this.spec.cwd ? { cwd: this.spec.cwd } : {}), stdio: ['pipe', 'pipe', 'pipe'], shell: false });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        for (;;) {
          let message: JSONRPCMessage | null;
          try {
            message = this.buffer.readMessage();
          } catch (error) {
            this.onerror?.(error as Error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, then asks the child to stop (SIGTERM, then SIGKILL) if it does not exit on its own. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const within = () => Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, EXIT_GRACE_MS).unref())]);
      child.stdin?.end();
      await within();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await within();
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    this.buffer.clear();
  }
}
