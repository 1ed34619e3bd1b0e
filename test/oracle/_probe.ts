import { JsonlSessionRepo, Session, JsonlSessionStorage, buildSessionContext, prepareCompaction, type SessionTreeEntry } from '@earendil-works/pi-agent-core';
import { NodeExecutionEnv } from '@earendil-works/pi-agent-core/node';
export async function f(): Promise<void> {
  const env = new NodeExecutionEnv({ cwd: '/tmp' });
  const repo = new JsonlSessionRepo({ fs: env, sessionsRoot: '/tmp/x' });
  const s: Session = await repo.create({ cwd: '/tmp' });
  const b: SessionTreeEntry[] = await s.getBranch();
  const r = prepareCompaction(b, { enabled: true, reserveTokens: 1, keepRecentTokens: 2 });
  if (r.ok && r.value) console.log(r.value.retainedTail, buildSessionContext(b), JsonlSessionStorage);
}
