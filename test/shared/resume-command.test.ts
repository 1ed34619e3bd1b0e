import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { resumeCommand } from '../../electron/shared/resume-command';

describe('resumeCommand', () => {
  it('quotes the path so a POSIX shell passes it to pi as one argument, quotes and spaces included', () => {
    const path = "/home/a b/it's $HOME `x`.jsonl";
    const command = resumeCommand(path);
    expect(command.startsWith('pi --session ')).toBe(true);
    // The shell's own reading of the quoted argument, with `pi` replaced by printf.
    const argv = execFileSync('sh', ['-c', `printf '%s\\n' ${command.slice('pi --session '.length)}`]).toString();
    expect(argv).toBe(`${path}\n`);
  });
});
