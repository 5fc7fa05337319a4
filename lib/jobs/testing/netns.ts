/**
 * A network namespace joined to this host by a veth pair, for cutting a worker off from PostgreSQL
 * (the link set down) without touching anything else. Needs root (CAP_NET_ADMIN) and iproute2.
 * Processes run inside with `ip netns exec <ns> …`, which execs, so signals reach them.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

/** Why a namespace cannot be made here, or null when it can. */
export function netnsSkipReason(): string | null {
  const probe = `srprobe${process.pid}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return null;
  } catch {
    return '`ip netns add` is not permitted here (needs root with CAP_NET_ADMIN and iproute2)';
  }
}

export interface NetnsPair {
  ns: string;
  /** This host's end of the link (PostgreSQL listens here too). */
  hostIp: string;
  /** The command prefix that runs a program inside the namespace. */
  exec: string[];
  /** The link down (the cut) or up again. */
  down(): void;
  up(): void;
  destroy(): void;
}

/** A new namespace and veth pair, named after this process so parallel runs do not meet. */
export function createNetnsPair(tag: string): NetnsPair {
  const id = `${tag}${process.pid % 100000}`;
  const ns = `sr${id}`;
  const hostIf = `srh${id}`.slice(0, 15);
  const nsIf = `srn${id}`.slice(0, 15);
  const octet = 16 + (process.pid % 200);
  const third = tag.length > 0 ? (tag.charCodeAt(0) % 200) + 16 : 16;
  const hostIp = `10.${third}.${octet}.1`;
  const nsIp = `10.${third}.${octet}.2`;
  ip('netns', 'add', ns);
  ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
  ip('link', 'set', nsIf, 'netns', ns);
  ip('addr', 'add', `${hostIp}/30`, 'dev', hostIf);
  ip('link', 'set', hostIf, 'up');
  ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${nsIp}/30`, 'dev', nsIf);
  ip('netns', 'exec', ns, 'ip', 'link', 'set', nsIf, 'up');
  ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
  return {
    ns,
    hostIp,
    exec: ['ip', 'netns', 'exec', ns],
    down: () => ip('link', 'set', hostIf, 'down'),
    up: () => ip('link', 'set', hostIf, 'up'),
    destroy() {
      for (const args of [['link', 'del', hostIf], ['netns', 'del', ns]]) {
        try {
          ip(...args);
        } catch {
          // already gone (deleting the namespace deletes its end of the pair, and with it the other)
        }
      }
    },
  };
}

/** The offline model server run inside the namespace (its own loopback), so a cut link leaves the model reachable. */
export async function spawnModelServerIn(pair: NetnsPair, datasetDir: string, latencyMs: number): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(pair.exec[0]!, [...pair.exec.slice(1), process.execPath, '--import', 'tsx', 'lib/jobs/testing/model-server-main.ts', datasetDir, String(latencyMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`the model server exited (${code}): ${out}`)));
  });
  return { url, proc };
}
