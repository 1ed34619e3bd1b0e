/**
 * The core facade, the only module imported from outside core: parse a session, read it under a
 * profile (leaf, path, context, labels, name), list and build its tree, plan forks, index a file
 * with lazy bodies. PURE: no I/O, no Node APIs.
 */
export type { Decode, Entry, Issue, IssueKind, ParsedSession, Profile, SessionHeader } from './types';
export { parseSession, parseSessionText, splitLines, ISSUE_KIND_TO_PI, type RawLine } from './rules/parse';
export { detectProfile, openProblem } from './rules/profile';
export { readPath, readSession, readSessionDetailed, type SessionReading } from './rules/reading';
export { readForGraph, type GraphReading } from './rules/graph-reading';
export { listTreeEntries, buildTree } from './rules/tree';
export { entryColumns } from './rules/tree-columns';
export { treeShape, walkTree } from './rules/tree-shape';
export { indexById, entriesFor } from './rules/entries';

export {
  forkFileLines,
  planFork,
  type ForkRequest,
  type ForkTarget,
  type ForkEnv,
  type ForkPlan,
  type ForkErrorKind,
} from './rules/fork';
export { encodeCwd, sessionFileName } from './rules/naming';
export { SessionIndexer, type IndexerOptions } from './engine/session-index';
export { BodyError } from './engine/line-source';
export { IndexedEntry, isIndexedEntry } from './engine/indexed-entry';
export { indexedParents } from './engine/first-parents';
export { scanEnvelope, newEnvelopeScan } from './engine/envelope-scan';
export { computeLabels, sessionName } from './rules/labels';

// What repo, the CLI and the bench use beyond reading a session: previews and usage of one entry
// (repo/session-bodies.ts skims bodies for them), the context view and fork preview, lineage.
export { contentText, previewEntry, PREVIEW_SKIM_KEYS, type EntryPreview } from './rules/entry-preview';
export { entryUsageFact, ledgerOf, usageFactOf, usageRecordOf, type UsageFact } from './rules/cost-ledger';
export { isPlainRecord } from './rules/parse';
export { TOO_DEEP_MARKER } from './rules/json-depth';
export { stringEnd } from './bytes/json-string';
export { isV1Header, lineId } from './rules/migrate';
export { buildContextView } from './rules/context-view';
export { previewFork } from './rules/fork-preview';
export { forkPoint } from './rules/lineage';
export { JsonSkimmer, type SkimKeys } from './engine/json-skim';
export {
  findPayloads,
  contentCut,
  cutPayloads,
  contentPage,
  PAYLOAD_CUT_MARKER,
  PAYLOAD_IMAGE_MIN_BYTES,
  type Payload,
  type PayloadOptions,
} from './rules/payload-cut';

// Two branches compared from their common ancestor (the compare view and `canopy diff`).
export { compareBranches } from './rules/compare';
export { FileStates, editsOf, fileKey, ELISION } from './rules/file-state';
