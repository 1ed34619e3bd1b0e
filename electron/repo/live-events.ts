/** `session.appended` for a grown row: what its open session read since its views were last sent. */
import type { SessionRowDto } from '../shared/dto';
import type { EventBus } from './event-bus';
import type { SessionStore, StoreOpenOptions } from './session-store';

/**
 * Emits the change of `row`'s open session (a delta or a reset), or nothing when the bytes read
 * changed no entry (a line still being written). A session not open here is named without a change
 * (a view that shows it fetches it).
 */
export async function publishAppended(
  bus: EventBus | undefined,
  store: SessionStore,
  live: Pick<StoreOpenOptions, 'writerIdleMs' | 'now'>,
  row: SessionRowDto,
): Promise<void> {
  if (!bus) return;
  const open = await store.ifOpen(row.path);
  if (!open) return bus.emit('session.appended', { sessionId: row.sessionId, sizeBytes: row.sizeBytes });
  const { now = Date.now, writerIdleMs } = live;
  // The view a live reader is shown (a line still being written is not an issue yet), as snapshots are.
  const change = open.liveChange(
    writerIdleMs === undefined ? open.live.session : open.live.sessionAt(now(), writerIdleMs),
  );
  if (change) bus.emit('session.appended', { sessionId: row.sessionId, sizeBytes: row.sizeBytes, ...change });
}
