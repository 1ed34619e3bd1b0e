import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultRoot,
  emptyRootNotes,
  expandTilde,
  linkFromArgs,
  openArgsFrom,
  resolveRoots,
  resolveRootsExplained,
  rootsFromArgs,
} from '../../electron/repo/roots';

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

  it("takes a root above pi's sessions folder as that folder, with a note", () => {
    const dirs = new Set(['/p/agent/sessions', '/q/sessions', '/q/agent/sessions']);
    const dir = (p: string) => dirs.has(p);
    const env = { PI_CODING_AGENT_DIR: '/opt/agent' };
    expect(resolveRootsExplained(['/p', '/q', '/r'], env, home, dir)).toEqual({
      roots: ['/opt/agent/sessions', '/p/agent/sessions', '/q/sessions', '/r'],
      notes: [
        "/p holds pi's sessions folder: browsing /p/agent/sessions",
        "/q holds pi's sessions folder: browsing /q/sessions",
      ],
    });
  });

  it('says which roots give nothing: missing, or without a session file (a skipped file counts as one)', () => {
    const dir = (p: string) => p !== '/gone';
    const listing = { sessions: [{ path: '/full/--a--/s.jsonl' }], skipped: [{ path: '/bad/--b--/x.jsonl' }] };
    expect(emptyRootNotes(['/full', '/bad', '/gone', '/fu'], listing, dir)).toEqual([
      '/gone does not exist',
      '/fu holds no pi session files (pi keeps them in <root>/--<cwd>--/*.jsonl)',
    ]);
  });
});

describe("--link=<hash> (how pi's /canopy reaches the app)", () => {
  it('takes a session link (with or without an entry) or a search link, and is no path to open', () => {
    const sid = '019c0000-0000-7000-8000-000000000001';
    expect(linkFromArgs(['app', `--link=#/session/${sid}?entry=a1b2c3d4`])).toBe(`#/session/${sid}?entry=a1b2c3d4`);
    expect(linkFromArgs(['app', `--link=#/session/${sid}`])).toBe(`#/session/${sid}`);
    expect(linkFromArgs(['app', '--link=#/search?q=deploy%20keys'])).toBe('#/search?q=deploy%20keys');
    expect(openArgsFrom(['--link=#/search?q=x', 'a.jsonl'])).toEqual(['a.jsonl']);
  });

  it('refuses anything else: other hashes, script, spaces, a second parameter', () => {
    for (const bad of [
      '#/other',
      'javascript:alert(1)',
      '#/session/a b',
      '#/search?q=a&b=c',
      '#/session/x?entry=1#2',
      '',
    ])
      expect(linkFromArgs([`--link=${bad}`]), bad).toBeNull();
    expect(linkFromArgs(['--link', '#/session/x'])).toBeNull();
  });
});
