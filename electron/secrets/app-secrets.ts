/**
 * The secret radar for the app: scans the catalog's listed sessions in the background once they
 * are listed (newest first, progress as `secrets.progress` events) and answers by session id (the
 * renderer never sends a path). A finding's value is read again only when the user reveals it.
 */
import { newestFirstPaths } from '../repo/listing-rows';
import { entryTexts } from './rules/entry-texts';
import { matchText } from './rules/scan';
import type { SessionListDto, SessionsChangeDto } from '../shared/dto';
import { CanopyError } from '../shared/errors';
import type { SecretsStatusDto, SessionSecretsDto } from '../shared/share-dto';
import type { EventBus } from '../repo/event-bus';
import type { OpenGate } from '../threads/open-gate';
import type { SessionService } from '../repo/session-service';
import { SECRET_MATCHERS } from './secretlint-matcher';
import type { SecretsStatus } from './secrets-service';
import { SecretsClient } from './secrets-client';
import { maskSecret } from './rules/mask';
import { throttledStatus } from '../repo/progress';

export interface AppSecretsOptions {
  /** Every folder sessions may come from: the cache is kept out of them. */
  roots: readonly string[];
  bus?: EventBus;
  env?: Record<string, string | undefined>;
  /** The scan gives way while a session opens. */
  gate?: OpenGate;
}

function statusDto(s: SecretsStatus | null, error: string | null): SecretsStatusDto {
  return s ? { ...s, error } : { scanning: false, done: 0, total: 0, withFindings: 0, error };
}

export class AppSecrets {
  private service: SecretsClient | null = null;
  private failure: string | null = null;
  private pathById = new Map<string, string>();
  private lastListing: SessionListDto | null = null;
  private updating: Promise<void> | null = null;

  constructor(private readonly options: AppSecretsOptions) {
    try {
      // Scans run in a worker thread: this loop only routes.
      this.service = new SecretsClient({
        roots: options.roots,
        ...(options.env ? { env: options.env } : {}),
        onStatus: throttledStatus(
          (s: SecretsStatus) => options.bus?.emit('secrets.progress', statusDto(s, null)),
          (s) => !s.scanning,
        ),
        onWorkerLost: (why) => options.bus?.emit('secrets.progress', statusDto(this.service?.getStatus() ?? null, why)),
        ...(options.gate ? { gate: options.gate } : {}),
      });
    } catch (err) {
      // The cache folder cannot be used (inside a session root): the radar is off, the app is not.
      this.failure = err instanceof Error ? err.message : String(err);
    }
  }

  /** A new listing: scan its sessions, newest first (the same listing again: nothing). */
  listed(listing: SessionListDto): void {
    if (listing === this.lastListing) return;
    this.lastListing = listing;
    this.pathById = new Map(listing.sessions.map((r) => [r.sessionId, r.path]));
    const paths = newestFirstPaths(listing.sessions);
    this.updating = this.service?.listed(paths).catch(() => undefined) ?? null;
  }

  /** Rows the catalog added or changed (a new session, one that grew): scanned now, not at the next listing. */
  async rowsChanged(change: SessionsChangeDto): Promise<void> {
    for (const id of change.removed) this.pathById.delete(id);
    const rows = [...change.added, ...change.changed];
    for (const r of rows) this.pathById.set(r.sessionId, r.path);
    if (rows.length > 0) await this.service?.update(rows.map((r) => r.path)).catch(() => undefined);
  }

  status(): SecretsStatusDto {
    return statusDto(this.service?.getStatus() ?? null, this.failure);
  }

  /** Settles when the current pass ends (tests). */
  async idle(): Promise<void> {
    await this.updating;
  }

  async counts(): Promise<Record<string, number>> {
    if (!this.service) return {};
    const byPath = await this.service.counts();
    const out: Record<string, number> = {};
    for (const [id, path] of this.pathById) {
      const n = byPath.get(path);
      if (n !== undefined) out[id] = n;
    }
    return out;
  }

  async session(sessionId: string): Promise<SessionSecretsDto> {
    const path = this.pathById.get(sessionId);
    if (!path) throw new CanopyError('not_found', `no listed session ${sessionId}`);
    if (!this.service) throw new CanopyError('io', `the secret radar is off: ${this.failure ?? 'no cache'}`);
    const s = await this.service.secretsOf(path);
    return {
      sessionId,
      scanned: s !== undefined,
      findings: (s?.findings ?? []).map(({ entryId, line, rule, pointer, masked }) => ({
        entryId,
        line,
        rule,
        pointer,
        masked,
      })),
    };
  }

  /** The value behind finding `index` of a session, read from the entry again. */
  async reveal(sessions: SessionService, sessionId: string, index: number): Promise<{ value: string }> {
    const f = (await this.session(sessionId)).findings[index];
    if (!f) throw new CanopyError('not_found', `no finding ${index} in ${sessionId}`);
    return sessions.with(sessionId, ({ session }) => {
      const entry = session.entriesOf('ca').byId.get(f.entryId);
      const text = entry && entryTexts(entry.raw).find((t) => t.pointer === f.pointer);
      const hit =
        text &&
        matchText(text.text, text.key, SECRET_MATCHERS).find(
          (m) => m.rule === f.rule && maskSecret(text.text.slice(m.start, m.end)) === f.masked,
        );
      if (!text || !hit) throw new CanopyError('not_found', 'the entry changed since it was scanned');
      return { value: text.text.slice(hit.start, hit.end) };
    });
  }

  close(): Promise<void> {
    // The cache is written at the end of each pass; the worker thread ends.
    return this.service?.close() ?? Promise.resolve();
  }
}
