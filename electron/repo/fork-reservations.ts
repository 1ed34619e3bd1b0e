/**
 * The new file's session id and time, drawn once by a fork preview and used again by the fork of
 * the same request, so the preview names the very file the fork writes (pi's name is
 * `<time>_<id>.jsonl`). A fork consumes its reservation: the next preview draws a new name.
 */
import { v7 as uuidv7 } from 'uuid';
import type { ForkRequestDto, ProfileDto } from '../shared/dto';

export interface Reservation {
  sessionId: string;
  /** ISO time of the new header. */
  now: string;
}

/** Previews not followed by a fork are dropped oldest first past this many. */
const MAX_RESERVATIONS = 64;

function keyOf(sessionId: string, request: ForkRequestDto, profile: ProfileDto | undefined): string {
  const parts =
    request.kind === 'fork'
      ? ['fork', request.entryId, request.position]
      : ['clone', request.leafId === undefined ? '~' : String(request.leafId)];
  return JSON.stringify([sessionId, profile ?? '', ...parts]);
}

export class ForkReservations {
  private readonly byKey = new Map<string, Reservation>();

  constructor(
    private readonly draw: () => Reservation = () => ({ sessionId: uuidv7(), now: new Date().toISOString() }),
  ) {}

  /** The preview's name for this request (the same until a fork uses it). */
  reserve(sessionId: string, request: ForkRequestDto, profile?: ProfileDto): Reservation {
    const key = keyOf(sessionId, request, profile);
    let r = this.byKey.get(key);
    if (!r) {
      r = this.draw();
      this.byKey.set(key, r);
      if (this.byKey.size > MAX_RESERVATIONS) this.byKey.delete(this.byKey.keys().next().value!);
    }
    return r;
  }

  /** The reservation a preview made for this request (removed), else a fresh draw. */
  take(sessionId: string, request: ForkRequestDto, profile?: ProfileDto): Reservation {
    const key = keyOf(sessionId, request, profile);
    const r = this.byKey.get(key);
    this.byKey.delete(key);
    return r ?? this.draw();
  }
}
