/**
 * `npm run docs:generate`: writes the generated references (docs/reference/cli.md from the commands'
 * own --help, docs/reference/configuration.md from the environment's and the policy file's schemas).
 * scripts/docs/docs.test.ts fails when a committed file differs from what this writes.
 */
import fs from 'node:fs';
import { cliReferenceMarkdown } from './cli-reference';
import { configurationReferenceMarkdown } from './configuration-reference';

/** Each generated file and how it is made. */
export const GENERATED_DOCS: Record<string, () => Promise<string> | string> = {
  'docs/reference/cli.md': cliReferenceMarkdown,
  'docs/reference/configuration.md': configurationReferenceMarkdown,
};

async function main(): Promise<void> {
  fs.mkdirSync('docs/reference', { recursive: true });
  for (const [file, make] of Object.entries(GENERATED_DOCS)) {
    fs.writeFileSync(file, await make());
    process.stdout.write(`wrote ${file}\n`);
  }
}

if (process.argv[1]?.endsWith('generate.ts')) await main();
