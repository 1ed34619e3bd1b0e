import { useEffect, useRef, useState } from 'react';
import { useActions } from '../../app-context';
import type { EntryDetailDto } from '../../lib/shared';

/** Bodies kept per open session (the oldest read goes first): enough for several screens. */
const MAX_BODIES = 300;
/** entry.get requests in flight at once: the rows in view arrive together, main answers in turn. */
const PARALLEL = 3;

export type BodyState = EntryDetailDto | { error: string };

/**
 * The bodies of the rows in view, read with entry.get as they come into view (never the whole
 * path: a 1 GiB session's transcript opens as fast as its graph). Rows that left the view before
 * their turn are not read.
 */
export function useEntryBodies(sessionId: string, wanted: readonly string[]): Map<string, BodyState> {
  const actions = useActions();
  const cache = useRef<{ sessionId: string; bodies: Map<string, BodyState> }>({ sessionId, bodies: new Map() });
  const inFlight = useRef(new Set<string>());
  const wantedRef = useRef(wanted);
  const [, setVersion] = useState(0);
  if (cache.current.sessionId !== sessionId) {
    cache.current = { sessionId, bodies: new Map() };
    inFlight.current = new Set();
  }
  wantedRef.current = wanted;
  const key = wanted.join(' ');

  const running = useRef(0);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  // A few pumps, each taking the next wanted row without a body (from the latest wanted list).
  useEffect(() => {
    mounted.current = true;
    const { bodies } = cache.current;
    const next = (): string | undefined => wantedRef.current.find((id) => !bodies.has(id) && !inFlight.current.has(id));
    const pump = async () => {
      running.current++;
      try {
        for (let id = next(); id !== undefined && mounted.current; id = next()) {
          inFlight.current.add(id);
          const r = await actions.readEntry(sessionId, id);
          inFlight.current.delete(id);
          if (cache.current.bodies !== bodies) return;
          bodies.set(id, 'data' in r ? r.data : { error: r.error.message });
          while (bodies.size > MAX_BODIES) bodies.delete(bodies.keys().next().value!);
          if (mounted.current) setVersion((v) => v + 1);
        }
      } finally {
        running.current--;
      }
    };
    while (running.current < PARALLEL && next() !== undefined) void pump();
  }, [actions, sessionId, key]);

  return cache.current.bodies;
}
