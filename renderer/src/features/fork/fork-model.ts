import type { ForkRequestDto, ProfileDto } from '../../lib/shared';
import type { ForkMode } from '../../store';

export function forkRequest(mode: ForkMode, entryId: string): ForkRequestDto {
  return mode === 'clone' ? { kind: 'clone' } : { kind: 'fork', entryId, position: mode };
}

export const MODE_LABELS: Record<ForkMode, string> = { before: 'before', at: 'at', clone: 'clone' };

/** pi's rule for each kind, per profile (pi-session-format.md §11). */
export const MODE_HELP: Record<ProfileDto, Record<ForkMode, string>> = {
  ca: {
    before:
      "/fork: before a user message. The new leaf is the message's parent (the prompt goes back to the editor); labels on the path are re-created.",
    at: 'Fork at this entry: it becomes the new leaf; the full path is copied, labels re-created.',
    clone: '/clone: copies the current branch with its labels.',
  },
  h3: {
    before: "Fork before a user message: copies the path to the message's parent, cut at compaction checkpoints.",
    at: 'Fork at this entry: copies the path to it verbatim, cut at compaction checkpoints.',
    clone: 'Clone: copies every entry of the file (all branches, labels, leaf records).',
  },
};
