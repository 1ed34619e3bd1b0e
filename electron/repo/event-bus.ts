/** A tiny typed event bus: the catalog publishes, the transports forward to their clients. */
import type { EventName, Events } from '../shared/contract';

export type EventListener = <E extends EventName>(event: E, payload: Events[E]) => void;

export class EventBus {
  private listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners) listener(event, payload);
  }
}
