/**
 * An endpoint as an admin saves it: the URL must be a target this deployment may send to and the
 * secret strong enough, else refused naming the field; the secret is generated when none is given.
 */
import { privateTargetsAllowed } from './limits';
import { checkSecret, newSecret, sealSecret } from './secret';
import { parseWebhookUrl } from './target';

export interface CheckedEndpoint {
  url: string;
  sealed: string;
  /** The generated secret to show once (null when the admin gave one). */
  generated: string | null;
}

/** Throws NotifyError with `field` (`url` or `secret`) when a setting is refused. */
export function checkEndpointSettings(input: { url: string; secret?: string }, rootKey: Buffer, env: Readonly<Record<string, string | undefined>> = process.env): CheckedEndpoint {
  const url = parseWebhookUrl(input.url, privateTargetsAllowed(env)).toString();
  if (input.secret !== undefined) checkSecret(input.secret);
  const secret = input.secret ?? newSecret();
  return { url, sealed: sealSecret(secret, rootKey), generated: input.secret === undefined ? secret : null };
}

