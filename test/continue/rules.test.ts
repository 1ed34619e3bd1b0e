import { describe, expect, it } from 'vitest';
import { commandLine, launchPlan, piArgv, terminalFor } from '../../electron/continue/rules';

const FILE = "/s/it's.jsonl";
const argv = piArgv(FILE);

describe('Continue in pi: the terminal launch, per OS', () => {
  it('Linux: the setting, else $TERMINAL, else x-terminal-emulator; each terminal its way of taking a command', () => {
    expect(launchPlan('linux', {}, '/p', argv)).toEqual({
      command: 'x-terminal-emulator',
      args: ['-e', 'pi', '--session', FILE],
      cwd: '/p',
    });
    expect(launchPlan('linux', { TERMINAL: '/usr/bin/gnome-terminal' }, '/p', argv).args).toEqual([
      '--working-directory=/p',
      '--',
      'pi',
      '--session',
      FILE,
    ]);
    expect(launchPlan('linux', { TERMINAL: 'kitty' }, '/p', argv).args).toEqual(['--directory', '/p', ...argv]);
    expect(launchPlan('linux', { TERMINAL: 'kitty', CANOPY_TERMINAL: 'wezterm' }, '/p', argv)).toMatchObject({
      command: 'wezterm',
      args: ['start', '--cwd', '/p', '--', ...argv],
    });
  });

  it('macOS: Terminal runs the line through AppleScript, quotes escaped', () => {
    const plan = launchPlan('darwin', { TERMINAL: 'ignored-on-mac' }, '/my "dir"', argv);
    expect(plan.command).toBe('osascript');
    expect(plan.args[1]).toBe(
      `tell application "Terminal" to do script "cd '/my \\"dir\\"' && 'pi' '--session' '/s/it'\\\\''s.jsonl'"`,
    );
    expect(terminalFor('darwin', { CANOPY_TERMINAL: 'iTerm' })).toBe('iTerm');
  });

  it('Windows: Windows Terminal with -d, another console program with /k', () => {
    expect(launchPlan('win32', {}, 'C:\\p', argv)).toEqual({
      command: 'wt.exe',
      args: ['-d', 'C:\\p', ...argv],
      cwd: 'C:\\p',
    });
    expect(launchPlan('win32', { CANOPY_TERMINAL: 'cmd.exe' }, 'C:\\p', argv).args).toEqual(['/k', ...argv]);
  });

  it('the copied line changes to the folder first; a fork uses --fork', () => {
    expect(commandLine('/p q', piArgv(FILE, true))).toBe(`cd '/p q' && 'pi' '--fork' '/s/it'\\''s.jsonl'`);
  });
});
