/**
 * Issue 22: three concurrent 250 MiB `session.upload`s took `canopy serve` to 3.3 GB RSS (each body
 * held whole, then its text, then a copy). Uploads are now streamed to a staging file: three
 * concurrent 128 MiB uploads to the real server (a child process) must not grow its peak RSS by
 * anything near the bodies' 384 MiB, and every upload is answered and listed. Asserts on memory
 * (the kernel's high-water mark, VmHWM), never on speed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../storage/tmp';
import { header, projectDirName, user } from '../repo/helpers';

const REPO = join(__dirname, '../..');
const MiB = 1024 * 1024;
const UPLOADS = 3;
const BODY_BYTES = 128 * MiB;

const why = !existsSync(join(REPO, 'out/renderer/index.html'))
  ? 'the renderer is not built (npm run build)'
  : !existsSync(join(REPO, 'out/cli/index.cjs'))
    ? 'the CLI is not built (npm run build)'
    : !existsSync('/proc/self/status')
      ? 'no /proc (the server’s RSS is read from /proc/PID/status)'
      : null;
if (why) console.warn(`[skipped] serve upload memory: ${why}`);

/** A status field of the process in kB (VmRSS now, VmHWM its peak so far). */
function memKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} for ${pid}`);
  return Number(m[1]);
}

/**
 * The JSON body `{"name": …, "text": …}` of a pi session of about `bytes` bytes, made piece by
 * piece as the request is written (never whole in this process): a header, then a chain of user
 * messages of ~1 KiB each, every line escaped as a JSON string's content.
 */
interface Made {
  /** The session file's bytes and entries (what the listed row must show). */
  textBytes: number;
  entries: number;
  /** Both bodies began before either ended (set as the pieces are made). */
  begun: boolean;
  ended: boolean;
}

function* uploadBody(n: number, bytes: number, made: Made): Generator<Buffer> {
  const id = `019c1000-0000-7000-8000-${String(n).padStart(12, '0')}`;
  const filler = `upload ${n} `.padEnd(900, 'lorem ipsum "quoted" \\ tab\t ');
  const escape = (line: string): string => {
    made.textBytes += Buffer.byteLength(line) + 1;
    return JSON.stringify(`${line}\n`).slice(1, -1);
  };
  made.begun = true;
  yield Buffer.from(`{"name":"upload-${n}.jsonl","text":"${escape(JSON.stringify(header(id, `/upload/${n}`)))}`);
  let sent = 0;
  let i = 0;
  while (sent < bytes) {
    let piece = '';
    for (let j = 0; j < 256; j++, i++) piece += escape(JSON.stringify(user(`u${i}`, i ? `u${i - 1}` : null, filler)));
    made.entries += 256;
    const buf = Buffer.from(piece);
    sent += buf.length;
    yield buf;
  }
  made.ended = true;
  yield Buffer.from('"}');
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe.skipIf(why !== null)('canopy serve: concurrent uploads', () => {
  it(`three concurrent ${BODY_BYTES / MiB} MiB uploads stay on disk, not in memory`, async () => {
    const root = await tempDir('canopy-upmem-');
    const tmp = await tempDir('canopy-upmem-tmp-');
    const project = join(root, projectDirName('/small'));
    await mkdir(project, { recursive: true });
    const small = [header('019c1000-0000-7000-8000-00000000aaaa', '/small'), user('s0', null, 'hello')];
    await writeFile(join(project, 'small.jsonl'), small.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const child = spawn(process.execPath, [join(REPO, 'bin/canopy.cjs'), 'serve', '--no-watch', '--root', root], {
      // The upload folder and the index live under TMPDIR / CANOPY_CACHE_DIR: both removed after the test.
      env: {
        ...process.env,
        TMPDIR: tmp,
        CANOPY_CACHE_DIR: join(tmp, 'cache'),
        PI_CODING_AGENT_DIR: join(tmp, 'agent'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /Open (http\S+)\n/.exec(out);
        if (m) resolve(new URL(m[1]!));
      });
      child.on('exit', (code) => reject(new Error(`serve exited (${code})`)));
    });
    const token = url.searchParams.get('token')!;
    const pid = child.pid!;
    const before = memKb(pid, 'VmRSS');

    const made: Made[] = Array.from({ length: UPLOADS }, () => ({
      textBytes: 0,
      entries: 0,
      begun: false,
      ended: false,
    }));
    let overlapped = false;
    const upload = async (n: number): Promise<{ status: number; body: string }> => {
      const req = request(new URL('/api/session.upload', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-canopy-token': token },
      });
      const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
      });
      await pipeline(Readable.from(uploadBody(n, BODY_BYTES, made[n]!)), req);
      return answered;
    };
    // Sampled too, to say how high it went while the bodies arrived (VmHWM is what is asserted).
    let sampled = before;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, memKb(pid, 'VmRSS'));
      overlapped ||= made.every((m) => m.begun && !m.ended);
    }, 50);
    const answers = await Promise.all(Array.from({ length: UPLOADS }, (_, n) => upload(n))).finally(() =>
      clearInterval(sampler),
    );
    const peak = memKb(pid, 'VmHWM');
    const grew = (peak - before) / 1024;
    console.log(
      `serve RSS: ${(before / 1024).toFixed(0)} MB before, peak ${(peak / 1024).toFixed(0)} MB (sampled ${(sampled / 1024).toFixed(0)} MB) ` +
        `while ${UPLOADS} × ${BODY_BYTES / MiB} MiB were uploaded at once`,
    );

    const ids: string[] = [];
    for (const a of answers) {
      expect(a.status, a.body.slice(0, 300)).toBe(200);
      const parsed = JSON.parse(a.body) as { ok: boolean; data: { sessionId: string } };
      expect(parsed.ok, a.body.slice(0, 300)).toBe(true);
      ids.push(parsed.data.sessionId);
    }
    const call = async <T>(channel: string, args: unknown): Promise<T> => {
      const res = await fetch(new URL(`/api/${channel}`, url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-canopy-token': token },
        body: JSON.stringify(args),
      });
      const body = (await res.json()) as { ok: boolean; data: T };
      expect(body.ok, JSON.stringify(body).slice(0, 300)).toBe(true);
      return body.data;
    };
    const listed = await call<{ sessions: { sessionId: string; sizeBytes: number; origin?: string }[] }>(
      'sessions.list',
      {},
    );
    const summaries = await call<Record<string, { entryCount: number }>>('sessions.summaries', { sessionIds: ids });
    ids.forEach((id, n) => {
      const row = listed.sessions.find((s) => s.sessionId === id);
      expect(row, `${id} listed`).toBeDefined();
      expect(row!.origin).toBe('uploaded');
      // Kept whole: every byte of the text, every entry.
      expect(row!.sizeBytes).toBe(made[n]!.textBytes);
      expect(summaries[id]!.entryCount).toBe(made[n]!.entries);
    });

    // The three bodies were in flight at once (seen by the sampler), so buffering them would have held all three.
    expect(overlapped).toBe(true);
    // Held in memory, the bodies alone would add 384 MiB (the old server held each 3–4 times over).
    expect(grew).toBeLessThan((UPLOADS * BODY_BYTES) / MiB / 2);
    expect(peak / 1024).toBeLessThan(400);
  }, 90_000);
});
