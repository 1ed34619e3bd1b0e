// pi's own reader in a fresh process: pi-agent-core 0.82.1 JsonlSessionStorage.open + Session
// (leaf and context), exactly what pi does to resume a session. Prints one JSON line.
//   open FILE
//   store ROOT   the same for every .jsonl under ROOT, one after another (what reading a store costs pi)
import { JsonlSessionStorage, Session } from '@earendil-works/pi-agent-core';
import { NodeExecutionEnv } from '@earendil-works/pi-agent-core/node';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const rssMB = () => process.resourceUsage().maxRSS / 1024;
const [mode, path] = process.argv.slice(2);
/** Every .jsonl file under `dir`. */
function sessionFiles(dir) {
  const out = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    if (d.isDirectory()) out.push(...sessionFiles(join(dir, d.name)));
    else if (d.name.endsWith('.jsonl')) out.push(join(dir, d.name));
  }
  return out;
}

try {
  if (mode === 'store') {
    const files = sessionFiles(path);
    const t0 = performance.now();
    let messages = 0;
    for (const file of files) {
      const storage = await JsonlSessionStorage.open(new NodeExecutionEnv({ cwd: dirname(file) }), file);
      messages += (await new Session(storage).buildContext()).messages.length;
    }
    const ms = performance.now() - t0;
    process.stdout.write(`${JSON.stringify({ ok: true, ms, files: files.length, messages, rssMB: rssMB() })}\n`);
    process.exit(0);
  }
  if (mode !== 'open') throw new Error(`unknown mode ${mode}`);
  const env = new NodeExecutionEnv({ cwd: dirname(path) });
  const t0 = performance.now();
  const storage = await JsonlSessionStorage.open(env, path);
  const indexMs = performance.now() - t0;
  const session = new Session(storage);
  const leafId = await session.getLeafId();
  const context = await session.buildContext();
  const ms = performance.now() - t0;
  const entries = (await storage.findEntries('message')).length;
  process.stdout.write(
    `${JSON.stringify({ ok: true, ms, indexMs, leafId, messageEntries: entries, contextMessages: context.messages.length, rssMB: rssMB() })}\n`,
  );
} catch (err) {
  process.stdout.write(
    `${JSON.stringify({ ok: false, error: String(err?.message ?? err).slice(0, 200), rssMB: rssMB() })}\n`,
  );
  process.exitCode = 1;
}
