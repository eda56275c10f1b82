// The native CLI's figures, read from what it prints, for the page's to be compared with.

import { spawnSync } from 'node:child_process';

/** The built CLI, relative to the repository's root (or the CSPKIT_CLI environment variable). */
export const CLI = process.env.CSPKIT_CLI || 'target/release/cspkit';

/**
 * Runs `cspkit ARGS --stats` and returns the figures of its statistics line
 * (`decisions 1724, tree nodes 3449, failures 1633, …, solutions 92, …`) as numbers by name.
 */
export function cliStats(args) {
  const run = spawnSync(CLI, [...args, '--stats'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.error) throw new Error(`cannot run ${CLI}: ${run.error.message}`);
  const text = `${run.stdout}\n${run.stderr}`;
  const line = text.split('\n').find((l) => /^decisions \d+, /.test(l));
  if (!line) throw new Error(`${CLI} ${args.join(' ')} --stats printed no statistics line:\n${text.slice(-2000)}`);
  const stats = {};
  for (const part of line.split(', ')) {
    const match = /^(.*\S) (\d+(?:\.\d+)?)(?: ms)?$/.exec(part.trim());
    if (match) stats[match[1]] = Number(match[2]);
  }
  return { line, stats };
}

/** Whether the CLI has the `serve` subcommand. */
export function cliServes() {
  const run = spawnSync(CLI, ['serve', '--help'], { encoding: 'utf8' });
  return !run.error && run.status === 0;
}
