/** The `session.appended` event of a grown row: what its open session read since its views were last sent. */
import type { Events } from '../shared/contract';
import type { SessionRowDto } from '../shared/dto';
import type { SessionStore, StoreOpenOptions } from './session-store';

export async function appendedEvent(
  store: SessionStore,
  live: Pick<StoreOpenOptions, 'writerIdleMs' | 'now'>,
  row: SessionRowDto,
): Promise<Events['session.appended']> {
  const open = await store.ifOpen(row.path);
  const { now = Date.now, writerIdleMs } = live;
  // The view a live reader is shown (a line still being written is not an issue yet), as snapshots are.
  const session = open && (writerIdleMs === undefined ? open.live.session : open.live.sessionAt(now(), writerIdleMs));
  const change = open && session ? open.liveChange(session) : null;
  return { sessionId: row.sessionId, sizeBytes: row.sizeBytes, ...(change ?? {}) };
}
