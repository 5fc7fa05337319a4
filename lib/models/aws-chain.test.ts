/**
 * Issue 22 §6: the Bedrock credential check accepts what the AWS SDK's default provider chain would
 * use, not only keys in the environment: a profile in the shared config or credentials file, and an
 * EC2 instance role; it still refuses, naming the variable, when there is nothing to use.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../harness/errors';
import { awsCredentialSource, awsRegion, readText, type ReadText } from './aws-chain';
import { missingCredential, requireCredentials } from './credentials';

/** A home directory with ~/.aws files holding these texts. */
function home(files: { config?: string; credentials?: string }): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stockroom-aws-'));
  mkdirSync(path.join(dir, '.aws'));
  if (files.config !== undefined) writeFileSync(path.join(dir, '.aws', 'config'), files.config);
  if (files.credentials !== undefined) writeFileSync(path.join(dir, '.aws', 'credentials'), files.credentials);
  return dir;
}

/** No EC2 host files: only what a test's home holds is read. */
const notEc2: ReadText = (file) => (file.startsWith('/sys/') ? null : readText(file));

describe('the Bedrock credential check follows the SDK default chain', () => {
  it('accepts the default profile of ~/.aws/credentials with the region in ~/.aws/config, with no AWS variable set', () => {
    const HOME = home({ credentials: '[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = x\n', config: '[default]\nregion = eu-west-1\n' });
    expect(missingCredential('bedrock', { HOME }, notEc2)).toBeNull();
    expect(awsRegion({ HOME }, notEc2)).toBe('eu-west-1');
    expect(awsCredentialSource({ HOME }, notEc2)).toBe('shared config profile');
  });

  it('accepts an SSO or assume-role profile named by AWS_PROFILE in ~/.aws/config', () => {
    const HOME = home({ config: '[profile ops]\nsso_session = corp\nsso_account_id = 111122223333\nregion = us-west-2\n\n[profile other]\nregion = eu-central-1\n' });
    expect(missingCredential('bedrock', { HOME, AWS_PROFILE: 'ops' }, notEc2)).toBeNull();
    const roleHome = home({ config: '[profile deploy]\nrole_arn = arn:aws:iam::111122223333:role/bedrock\ncredential_source = Ec2InstanceMetadata\n', credentials: '' });
    expect(missingCredential('bedrock', { HOME: roleHome, AWS_PROFILE: 'deploy', AWS_REGION: 'us-east-1' }, notEc2)).toBeNull();
  });

  it('accepts an EC2 instance (its instance id as the board asset tag) for its instance role', () => {
    const ec2: ReadText = (file) => (file === '/sys/devices/virtual/dmi/id/board_asset_tag' ? 'i-0123456789abcdef0\n' : null);
    expect(awsCredentialSource({ AWS_REGION: 'us-east-1' }, ec2)).toBe('EC2 instance role');
    expect(missingCredential('bedrock', { AWS_REGION: 'us-east-1' }, ec2)).toBeNull();
  });

  it('still refuses, naming what is missing, when the chain has nothing to use', () => {
    const empty = home({ config: '[profile other]\nregion = eu-west-1\n', credentials: '[other]\naws_access_key_id = AKIA\n' });
    expect(missingCredential('bedrock', { HOME: empty }, notEc2)).toBe('AWS_REGION');
    expect(missingCredential('bedrock', { HOME: empty, AWS_REGION: 'us-east-1' }, notEc2)).toBe('AWS_ACCESS_KEY_ID');
    let err: unknown;
    try {
      requireCredentials('bedrock', { HOME: empty, AWS_REGION: 'us-east-1' }, notEc2);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).key).toBe('AWS_ACCESS_KEY_ID');
    expect((err as Error).message).toMatch(/AWS_PROFILE/);
  });
});
