import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRoot, expandTilde, resolveRoots, rootsFromArgs } from '../../electron/repo/roots';

const home = '/home/tester';

describe('session roots', () => {
  it('uses ~/.pi/agent/sessions without PI_CODING_AGENT_DIR (and when it is empty)', () => {
    expect(defaultRoot({}, home)).toBe(join(home, '.pi', 'agent', 'sessions'));
    expect(defaultRoot({ PI_CODING_AGENT_DIR: '' }, home)).toBe(join(home, '.pi', 'agent', 'sessions'));
  });

  it('uses $PI_CODING_AGENT_DIR/sessions with a leading ~ expanded', () => {
    expect(defaultRoot({ PI_CODING_AGENT_DIR: '/opt/agent' }, home)).toBe('/opt/agent/sessions');
    expect(defaultRoot({ PI_CODING_AGENT_DIR: '~/agent' }, home)).toBe(join(home, 'agent', 'sessions'));
    expect(defaultRoot({ PI_CODING_AGENT_DIR: '~' }, home)).toBe(join(home, 'sessions'));
  });

  it('expands only a leading "~" or "~/"', () => {
    expect(expandTilde('~user/x', home)).toBe('~user/x');
    expect(expandTilde('a/~/b', home)).toBe('a/~/b');
  });

  it('adds --root dirs after the default, absolute and without duplicates', () => {
    const env = { PI_CODING_AGENT_DIR: '/opt/agent' };
    expect(
      rootsFromArgs(
        ['app.js', '--root', 'rel/dir', '--root=/abs', '--other', '--root', '/opt/agent/sessions'],
        env,
        home,
      ),
    ).toEqual(['/opt/agent/sessions', resolve('rel/dir'), '/abs']);
    expect(resolveRoots(['~/more'], env, home)).toEqual(['/opt/agent/sessions', join(home, 'more')]);
  });
});
