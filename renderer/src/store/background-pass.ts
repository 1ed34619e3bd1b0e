import type { Result, ResultOf } from '../lib/shared';
import type { ActionContext } from './action-context';

type PassChannel = 'store.report' | 'doctor.store';
type PassEvent = 'store.progress' | 'doctor.progress';

export interface PassSink<T> {
  data(report: T): void;
  error(message: string): void;
  /** A running pass's progress, on the report already shown. */
  progress(done: number, total: number): void;
}

/**
 * A pass main runs in the background (the store report, the doctor's pass over the store): `load`
 * asks for it (`refresh`: run again) and keeps only the newest answer; `follow` asks now, follows
 * its progress event and asks again when it ends, and returns the stop.
 */
export function backgroundPass<C extends PassChannel>(
  { api, check }: Pick<ActionContext, 'api' | 'check'>,
  channel: C,
  event: PassEvent,
  sink: PassSink<ResultOf<C>>,
): { load(refresh?: boolean): Promise<void>; follow(): () => void } {
  let seq = 0;
  const ask = api[channel] as (args: { refresh?: boolean }) => Promise<Result<ResultOf<C>>>;
  async function load(refresh = false) {
    const mine = ++seq;
    const r = check(await ask(refresh ? { refresh: true } : {}));
    // An older answer that comes after a newer one is dropped.
    if (mine !== seq) return;
    if ('data' in r) sink.data(r.data);
    else sink.error(r.error.message);
  }
  return {
    load,
    follow() {
      void load();
      return api.on(event, (p) => {
        if (p.state === 'running') sink.progress(p.done, p.total);
        else void load();
      });
    },
  };
}
