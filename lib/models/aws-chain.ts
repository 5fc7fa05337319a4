/**
 * What the AWS SDK's default credential chain could use, found without a network call, so the
 * Bedrock check accepts every source the SDK itself would (not only keys in the environment) and
 * still refuses, naming what is missing, when none is there:
 *   - environment: static keys, AWS_PROFILE, web identity, an ECS/EKS container role;
 *   - the shared config and credentials files (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else
 *     ~/.aws/config and ~/.aws/credentials) holding the profile in use (AWS_PROFILE, else `default`)
 *     with keys or a way to get them (role_arn, sso_*, credential_process, web_identity_token_file);
 *   - an EC2 instance role: the host says it is an EC2 instance (its DMI board asset tag is an
 *     instance id, or its hypervisor UUID starts with `ec2`), the documented way to tell without
 *     asking the metadata service. Whether the instance has a role attached is learnt at the first call.
 * The region likewise comes from AWS_REGION / AWS_DEFAULT_REGION or the profile's `region`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export type Env = Record<string, string | undefined>;

/** Reads a file as text, or null when it is not there (injected by tests). */
export type ReadText = (file: string) => string | null;

export const readText: ReadText = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

const set = (env: Env, name: string) => (env[name] ?? '').trim() !== '';

const ENV_SOURCES = ['AWS_ACCESS_KEY_ID', 'AWS_PROFILE', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'];

/** Keys of a profile that let the chain produce credentials. */
const PROFILE_SOURCES = ['aws_access_key_id', 'role_arn', 'sso_session', 'sso_start_url', 'credential_process', 'web_identity_token_file', 'credential_source'];

/** The sections of an ini file: name → key → value (comments and blank lines skipped). */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (kv && current) current.set(kv[1]!.toLowerCase(), kv[2]!);
  }
  return sections;
}

function sharedFiles(env: Env): { config: string | null; credentials: string | null } {
  const home = env.HOME || env.USERPROFILE;
  return {
    config: env.AWS_CONFIG_FILE || (home ? path.join(home, '.aws', 'config') : null),
    credentials: env.AWS_SHARED_CREDENTIALS_FILE || (home ? path.join(home, '.aws', 'credentials') : null),
  };
}

/** The profile in use, as written in each file (`[name]` in credentials; `[profile name]`, or `[default]`, in config). */
function profileOf(env: Env, read: ReadText): { credentials: Map<string, string> | null; config: Map<string, string> | null } {
  const name = env.AWS_PROFILE?.trim() || 'default';
  const files = sharedFiles(env);
  const creds = files.credentials ? read(files.credentials) : null;
  const conf = files.config ? read(files.config) : null;
  const confSections = conf ? parseIni(conf) : null;
  return {
    credentials: creds ? (parseIni(creds).get(name) ?? null) : null,
    config: confSections ? (confSections.get(`profile ${name}`) ?? (name === 'default' ? (confSections.get('default') ?? null) : null)) : null,
  };
}

/** Whether the host is an EC2 instance, from what the instance itself exposes locally. */
export function onEc2(read: ReadText): boolean {
  const tag = read('/sys/devices/virtual/dmi/id/board_asset_tag')?.trim() ?? '';
  if (/^i-[0-9a-f]{8,17}$/.test(tag)) return true;
  return (read('/sys/hypervisor/uuid')?.trim().toLowerCase() ?? '').startsWith('ec2');
}

/** Where the default chain would find credentials, or null when it has nowhere to look. */
export function awsCredentialSource(env: Env, read: ReadText = readText): string | null {
  const fromEnv = ENV_SOURCES.find((v) => set(env, v));
  if (fromEnv) return fromEnv;
  const profile = profileOf(env, read);
  for (const section of [profile.credentials, profile.config]) {
    if (section && PROFILE_SOURCES.some((k) => (section.get(k) ?? '').trim() !== '')) return 'shared config profile';
  }
  return onEc2(read) ? 'EC2 instance role' : null;
}

/** The region the SDK would use, or null. */
export function awsRegion(env: Env, read: ReadText = readText): string | null {
  const fromEnv = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim();
  if (fromEnv) return fromEnv;
  return profileOf(env, read).config?.get('region')?.trim() || null;
}
