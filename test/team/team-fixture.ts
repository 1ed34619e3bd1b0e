/**
 * Two "machines" for the team tests: each a sessions root and a Canopy data folder of its own. Machine
 * A holds a session with a secret planted in every place a line can carry one; machine B holds a fork
 * of A's session (its header names A's file as parent; the copied entries keep their ids and times).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assistant, entry, header, jsonl, projectDirName, tempDir, user } from '../repo/helpers';

type Rec = Record<string, unknown>;

const ANTHROPIC = (seed: string): string => `sk-ant-api03-${seed.repeat(93).slice(0, 93)}AA`;

/** Every raw value that must never reach the database, by where it was planted. */
export const SECRETS = {
  awsInText: 'AKIAZ4QW7RT2YUP3LKJH',
  anthropicInText: ANTHROPIC('Qx7Lm2Rt9Kp4Wz8N'),
  passwordInToolOutput: 'Vx9qLm2RT8wZp4Kd',
  githubInEntryId: 'ghp_R8mK2pQ7xL4vN9wT3zY6bH1cJ5dF0gA2sE8u',
  anthropicAsKey: ANTHROPIC('Hc3Vb8Nm1Qa6Zs5X'),
  awsInSignature: 'AKIAM5NB4VC3XZ7LKJHG',
  awsInSessionName: 'AKIAP2OI3UY4TR5EW6QA',
  awsInCwd: 'AKIAL7KJ6HG5FD4SA3ZX',
  /** Caught only by machine A's own redactions (redactions.json in its data folder). */
  userLiteral: 'plover-xyzzy-internal-codename',
} as const;

export const IMAGE_BYTES = 3000;

export interface Machine {
  name: string;
  root: string;
  data: string;
}

export interface TwoMachines {
  a: Machine;
  b: Machine;
  /** A's session, B's fork of it (paths). */
  parent: string;
  fork: string;
  /** An empty folder for PI_CODING_AGENT_DIR, so pi's own root adds nothing. */
  piHome: string;
}

function toolResult(id: string, parentId: string, text: string): Rec {
  return entry('message', id, parentId, {
    message: { role: 'toolResult', toolCallId: 'call-1', toolName: 'bash', content: [{ type: 'text', text }] },
  });
}

function priced(id: string, parentId: string | null, text: string, cost: number): Rec {
  const a = assistant(id, parentId, text);
  const m = a.message as Rec;
  m.usage = {
    input: 100,
    output: 50,
    cacheRead: 10,
    cacheWrite: 5,
    totalTokens: 165,
    cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
  };
  return a;
}

export async function twoMachines(): Promise<TwoMachines> {
  const base = await tempDir('canopy-team-');
  const a = { name: 'laptop-a', root: join(base, 'a/sessions'), data: join(base, 'a/data') };
  const b = { name: 'box-b', root: join(base, 'b/sessions'), data: join(base, 'b/data') };
  const piHome = join(base, 'pi-home');
  for (const d of [a.data, b.data, piHome]) await mkdir(d, { recursive: true });
  await writeFile(join(a.data, 'redactions.json'), JSON.stringify({ literals: [SECRETS.userLiteral], regexes: [] }));

  const cwd = `/home/alice/${SECRETS.awsInCwd}/proj`;
  const image = Buffer.alloc(IMAGE_BYTES, 7).toString('base64');
  const parentLines: Rec[] = [
    header('019c0000-0000-7000-8000-00000000a001', cwd),
    user('u1', null, `deploy with key ${SECRETS.awsInText}`),
    priced('a1', 'u1', `use ${SECRETS.anthropicInText} as the api key`, 0.25),
    toolResult('t1', 'a1', `$ cat .env\nDB_PASSWORD=${SECRETS.passwordInToolOutput}\n`),
    entry('message', SECRETS.githubInEntryId, 't1', {
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'a screenshot' },
          { type: 'image', data: image, mimeType: 'image/png' },
        ],
      },
    }),
    entry('custom', 'c1', SECRETS.githubInEntryId, { customType: 'ext', data: { [SECRETS.anthropicAsKey]: 1 } }),
    (() => {
      const x = priced('a2', 'c1', 'thinking done', 0.5);
      (x.message as Rec).content = [
        { type: 'thinking', thinking: 'hmm', thinkingSignature: `sig-${SECRETS.awsInSignature}-sig` },
        { type: 'text', text: `ok for ${SECRETS.userLiteral}` },
      ];
      return x;
    })(),
    entry('session_info', 'n1', 'a2', { name: `release ${SECRETS.awsInSessionName}` }),
  ];
  const parentName = '2026-03-01T10-00-00-000Z_019c0000-0000-7000-8000-00000000a001.jsonl';
  const parentDir = join(a.root, projectDirName(cwd));
  await mkdir(parentDir, { recursive: true });
  const parent = join(parentDir, parentName);
  await writeFile(parent, jsonl(parentLines));

  // B's fork: pi copies the path to the root (here: u1 → a1 → t1) into a new file naming its parent.
  const forkDir = join(b.root, projectDirName('/home/bob/proj'));
  await mkdir(forkDir, { recursive: true });
  const fork = join(forkDir, '2026-03-02T09-00-00-000Z_019c0000-0000-7000-8000-00000000b001.jsonl');
  const forkLines: Rec[] = [
    header('019c0000-0000-7000-8000-00000000b001', '/home/bob/proj', {
      // The path as A wrote it: here it resolves (so `canopy usage` over both roots links the family);
      // the database links it by file name, whichever machine holds the parent.
      parentSession: parent,
    }),
    ...parentLines.slice(1, 4),
    priced('b1', 't1', 'a new answer on B', 0.125),
  ];
  await writeFile(fork, jsonl(forkLines));
  return { a, b, parent, fork, piHome };
}

/** Another priced reply, for appends (a distinct id each call). */
let appended = 0;
export function moreLines(parentId: string, n: number): string {
  const out: Rec[] = [];
  let prev = parentId;
  for (let i = 0; i < n; i++) {
    const id = `more${++appended}`;
    out.push(priced(id, prev, `appended ${id}`, 0.01));
    prev = id;
  }
  return jsonl(out);
}
