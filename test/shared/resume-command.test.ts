import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeCommand, resumeCommandIn } from '../../electron/shared/resume-command';

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

describe('resumeCommandIn', () => {
  it('changes to the cwd first; both arguments survive the shell whole', () => {
    const dir = mkdtempSync(join(tmpdir(), "canopy it's $x "));
    const path = `${dir}/s 'a'.jsonl`;
    const command = resumeCommandIn(dir, path);
    expect(command.startsWith(`cd '`)).toBe(true);
    // pi replaced by a function that prints the cwd and its arguments.
    const out = execFileSync('sh', ['-c', `pi() { pwd; printf '%s\\n' "$@"; }; ${command}`]).toString();
    expect(out).toBe(`${realpathSync(dir)}\n--session\n${path}\n`);
    rmSync(dir, { recursive: true, force: true });
    expect(resumeCommandIn('', '/p.jsonl')).toBe("pi --session '/p.jsonl'");
  });
});
