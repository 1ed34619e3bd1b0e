/**
 * Labels and the session name, over all of the profile's entries in file order (every branch;
 * see ParsedSession.entriesOf).
 * CA (SessionManager._buildIndex): a truthy `label` sets, anything else clears; no trim; the
 * timestamp of the label entry that set the current value is remembered (fork re-creates it).
 * H3 (jsonl-storage updateLabelCache): the label is trimmed first, so whitespace clears.
 * Maps keep pi's insertion order (a re-set keeps its place, a clear then set moves to the end):
 * CA's fork writes labels in that order.
 */
import { entryTargetId, entryTimestamp } from './entry-fields';
import type { Entry, ParsedSession, Profile } from '../types';

export interface LabelState {
  labels: Map<string, string>;
  /** CA only: targetId → timestamp of the label entry that set the current label. */
  timestamps: Map<string, string>;
  /** Label entries whose payload pi could not read (non-string label under H3). */
  malformed: Entry[];
}

export function computeLabels(s: ParsedSession, profile: Profile): LabelState {
  const labels = new Map<string, string>();
  const timestamps = new Map<string, string>();
  const malformed: Entry[] = [];
  for (const e of s.entriesOf(profile).ofType('label')) {
    const target = entryTargetId(e);
    // pi keys its map by whatever targetId holds; only string keys can ever be looked up.
    if (typeof target !== 'string') continue;
    const label = e.raw.label as unknown;
    let value: string | undefined;
    if (profile === 'h3') {
      if (label !== undefined && label !== null && typeof label !== 'string') {
        malformed.push(e); // pi: TypeError (label.trim is not a function) while loading
        continue;
      }
      value = label?.trim() || undefined;
    } else {
      value = label ? String(label) : undefined;
    }
    if (value !== undefined) {
      labels.set(target, value);
      // pi copies whatever the line holds into the re-created label (even a non-string).
      timestamps.set(target, entryTimestamp(e) as string);
    } else {
      labels.delete(target);
      timestamps.delete(target);
    }
  }
  return { labels, timestamps, malformed };
}

/**
 * Name of the last `session_info` entry in file order, trimmed; empty or missing = no name (CA and
 * H3, over that profile's entries; default CA).
 */
export function sessionName(s: ParsedSession, profile: Profile = 'ca'): string | undefined {
  const infos = s.entriesOf(profile).ofType('session_info');
  for (let i = infos.length - 1; i >= 0; i--) {
    const e = infos[i]!;
    const name = e.raw.name as unknown;
    // A non-string name makes pi throw (name.trim); treat it as no name.
    return typeof name === 'string' ? name.trim() || undefined : undefined;
  }
  return undefined;
}
