/** `stockroom config`: the effective configuration after environment and flags. */
import { parseArgs } from '../args';
import type { CliCommand } from '../command';
import { configFromArgs, HARNESS_FLAGS } from '../common';
import { defaultDatasetDir } from '../../lib/stockroom/dataset/load-dataset';
import { stringFlag } from '../args';

export const command: CliCommand = {
  name: 'config',
  summary: 'print the effective configuration',
  usage: 'config [same flags as run]',
  flags: HARNESS_FLAGS,
  async run(argv) {
    const args = parseArgs(argv, HARNESS_FLAGS);
    const config = configFromArgs(args);
    const dataset = stringFlag(args, 'dataset') ?? defaultDatasetDir();
    process.stdout.write(JSON.stringify({ ...config, dataset }, null, 2) + '\n');
    return 0;
  },
};
