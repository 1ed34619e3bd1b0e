import { runCli } from '../../electron/cli';

export interface Run {
  code: number;
  out: string;
  err: string;
  /** stdout's lines as JSON objects when the command ran with --json. */
  json: Record<string, any>[];
}

/** Runs the CLI in process, capturing what it prints. */
export async function cli(...argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  const json = argv.includes('--json')
    ? out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>)
    : [];
  return { code, out, err, json };
}
