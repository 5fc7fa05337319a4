/**
 * Where an email notification is sent from. Each SMTP setting comes from the endpoint when its
 * admin set it there, else from the operator's environment (STOCKROOM_SMTP_*); one missing from
 * both is refused at save naming the field. Credentials are kept only sealed (like a webhook's
 * secret) and never leave the server: the endpoint's pair is used with the endpoint's host; the
 * operator's pair only with the operator's host, so an admin who types a host of their own never
 * receives the operator's password.
 */
import net from 'node:net';
import { NotifyError } from './errors';
import { privateTargetsAllowed } from './limits';
import { sealSecret, unsealSecret } from './secret';
import { isPrivateAddress } from './target';

type Env = Readonly<Record<string, string | undefined>>;

/** What an endpoint keeps of its own settings (stored as JSON; never credentials). */
export interface EndpointSmtp {
  host?: string;
  port?: number;
  secure?: boolean;
  from?: string;
}

export interface SmtpCredentials {
  user: string;
  pass: string;
}

/** The settings one send uses. `hostFromEndpoint`: the admin typed the host, so its address is checked. */
export interface ResolvedSmtp {
  host: string;
  port: number;
  secure: boolean;
  from: string;
  credentials: SmtpCredentials | null;
  hostFromEndpoint: boolean;
}

/** Most recipients one endpoint may have. */
export const MAX_RECIPIENTS = 20;
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const invalid = (field: string, what: string) => new NotifyError('invalid_setting', `${field}: ${what}`, field);

/** The operator's settings (STOCKROOM_SMTP_HOST, _PORT, _SECURE, _FROM, _USER, _PASSWORD); a bad one is refused naming the variable. */
export function smtpFromEnv(env: Env = process.env): { settings: EndpointSmtp; credentials: SmtpCredentials | null } {
  const get = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const settings: EndpointSmtp = {};
  const host = get('STOCKROOM_SMTP_HOST');
  if (host !== undefined) settings.host = checkHost(host, 'STOCKROOM_SMTP_HOST');
  const port = get('STOCKROOM_SMTP_PORT');
  if (port !== undefined) {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65_535) throw invalid('STOCKROOM_SMTP_PORT', `must be a port from 1 to 65535 (got '${port}')`);
    settings.port = n;
  }
  const secure = get('STOCKROOM_SMTP_SECURE');
  if (secure !== undefined) {
    if (secure !== 'true' && secure !== 'false') throw invalid('STOCKROOM_SMTP_SECURE', `must be true or false (got '${secure}')`);
    settings.secure = secure === 'true';
  }
  const from = get('STOCKROOM_SMTP_FROM');
  if (from !== undefined) settings.from = checkAddress(from, 'STOCKROOM_SMTP_FROM');
  const user = get('STOCKROOM_SMTP_USER');
  const pass = env.STOCKROOM_SMTP_PASSWORD || undefined;
  if (user !== undefined && pass === undefined) throw invalid('STOCKROOM_SMTP_PASSWORD', 'missing: STOCKROOM_SMTP_USER is set, so the password must be too');
  if (pass !== undefined && user === undefined) throw invalid('STOCKROOM_SMTP_USER', 'missing: STOCKROOM_SMTP_PASSWORD is set, so the user must be too');
  return { settings, credentials: user !== undefined && pass !== undefined ? { user, pass } : null };
}

function checkHost(host: string, field: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (!net.isIP(bare) && !HOSTNAME.test(bare)) throw invalid(field, `not a host name or address (got '${host.slice(0, 80)}')`);
  return bare;
}

function checkAddress(address: string, field: string): string {
  if (!ADDRESS.test(address) || address.length > 320) throw invalid(field, `not an email address (got '${address.slice(0, 80)}')`);
  return address;
}

/** Recipients as an admin typed them (commas, semicolons or new lines between), checked and without repeats. */
export function parseRecipients(raw: string): string[] {
  const list = [...new Set(raw.split(/[\s,;]+/).filter((a) => a !== '').map((a) => checkAddress(a, 'recipients').toLowerCase()))];
  if (list.length === 0) throw invalid('recipients', 'enter at least one address');
  if (list.length > MAX_RECIPIENTS) throw invalid('recipients', `at most ${MAX_RECIPIENTS} addresses (got ${list.length})`);
  return list;
}

/** The recipients of a stored email endpoint (its `mailto:` URL). */
export const recipientsOf = (url: string): string[] => decodeURIComponent(url.replace(/^mailto:/, '')).split(',').filter(Boolean);

export interface EmailSettingsInput {
  recipients: string;
  smtpHost?: string;
  smtpPort?: number;
  smtpSecure?: boolean;
  smtpFrom?: string;
  smtpUser?: string;
  smtpPassword?: string;
}

export interface CheckedEmailEndpoint {
  /** `mailto:` and the recipients, comma-separated: where the endpoint sends, as the log shows it. */
  url: string;
  /** The endpoint's own settings as JSON (no credentials). */
  smtp: string;
  /** The endpoint's credentials, sealed (`null` sealed when it has none). */
  sealed: string;
}

/** Checks an email endpoint as saved; throws NotifyError naming the field (`recipients`, `smtpHost`, …) when refused. */
export function checkEmailSettings(input: EmailSettingsInput, rootKey: Buffer, env: Env = process.env): CheckedEmailEndpoint {
  const recipients = parseRecipients(input.recipients);
  const operator = smtpFromEnv(env);
  const own: EndpointSmtp = {};
  if (input.smtpHost !== undefined) {
    own.host = checkHost(input.smtpHost, 'smtpHost');
    if (!privateTargetsAllowed(env) && (net.isIP(own.host) ? isPrivateAddress(own.host) : /^localhost$|\.localhost$/i.test(own.host))) {
      throw new NotifyError('target_refused', `smtpHost: ${own.host} is a loopback, private or link-local address; the operator has not allowed such targets (STOCKROOM_WEBHOOK_ALLOW_PRIVATE)`, 'smtpHost');
    }
  }
  if (input.smtpPort !== undefined) own.port = input.smtpPort;
  if (input.smtpSecure !== undefined) own.secure = input.smtpSecure;
  if (input.smtpFrom !== undefined) own.from = checkAddress(input.smtpFrom, 'smtpFrom');
  if (input.smtpUser !== undefined && input.smtpPassword === undefined) throw invalid('smtpPassword', 'missing: a user was given, so its password must be too');
  if (input.smtpPassword !== undefined && input.smtpUser === undefined) throw invalid('smtpUser', 'missing: a password was given, so its user must be too');
  if (input.smtpUser !== undefined && own.host === undefined) throw invalid('smtpHost', 'missing: credentials given here are sent only to a host given here');
  // What is neither here nor in the operator's environment cannot be sent with.
  resolveSmtp(own, null, operator);
  const credentials = input.smtpUser !== undefined ? { user: input.smtpUser, pass: input.smtpPassword! } : null;
  return { url: `mailto:${recipients.join(',')}`, smtp: JSON.stringify(own), sealed: sealSecret(JSON.stringify(credentials), rootKey) };
}

/** The settings one send uses: the endpoint's over the operator's; a setting missing from both is refused naming the field. */
export function resolveSmtp(own: EndpointSmtp, ownCredentials: SmtpCredentials | null, operator: ReturnType<typeof smtpFromEnv>): ResolvedSmtp {
  const host = own.host ?? operator.settings.host;
  if (host === undefined) throw invalid('smtpHost', 'missing: enter the SMTP host, or have the operator set STOCKROOM_SMTP_HOST');
  const from = own.from ?? operator.settings.from;
  if (from === undefined) throw invalid('smtpFrom', 'missing: enter the sender address, or have the operator set STOCKROOM_SMTP_FROM');
  const secure = own.secure ?? operator.settings.secure ?? false;
  const port = own.port ?? operator.settings.port ?? (secure ? 465 : 587);
  const hostFromEndpoint = own.host !== undefined;
  return { host, port, secure, from, credentials: hostFromEndpoint ? ownCredentials : operator.credentials, hostFromEndpoint };
}

/** A stored email endpoint's settings for a send (the operator's environment as it is now). */
export function smtpForSend(smtpJson: string | null, sealed: string, rootKey: Buffer, env: Env = process.env): ResolvedSmtp {
  let own: EndpointSmtp = {};
  try {
    own = smtpJson ? (JSON.parse(smtpJson) as EndpointSmtp) : {};
  } catch {
    throw new NotifyError('invalid_setting', 'an email endpoint’s SMTP settings are stored in an unknown form');
  }
  const credentials = JSON.parse(unsealSecret(sealed, rootKey)) as SmtpCredentials | null;
  return resolveSmtp(own, credentials, smtpFromEnv(env));
}
