/**
 * docs/reference/cli.md: what `npm run stockroom -- --help`, every command's `--help` and
 * `npm run worker -- --help` print, so the reference is the commands' own words.
 */
import { COMMANDS, commandHelp, help } from '../../cli/stockroom';
import { workerHelp } from '../../cli/worker-help';
import { GENERATED_NOTE } from './configuration-reference';

export async function cliReferenceMarkdown(): Promise<string> {
  const sections: string[] = [];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const { command } = await load();
    sections.push(`## ${name}\n\n\`\`\`text\n${commandHelp(command)}\n\`\`\``);
  }
  return `# Command-line reference

${GENERATED_NOTE}

Every command answers \`--help\` (or \`-h\`) with the text below. Flags are parsed with node's
\`util.parseArgs\` (\`cli/args.ts\`): an unknown flag, a missing value or a value outside its allowed set is
refused naming the flag (exit 2). Examples and exit codes: [the command line](../guides/command-line.md).

\`\`\`text
${await help()}
\`\`\`

${sections.join('\n\n')}

## worker

\`\`\`text
${workerHelp().trimEnd()}
\`\`\`
`;
}
