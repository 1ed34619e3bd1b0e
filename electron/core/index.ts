/**
 * The core facade, the only module imported from outside core: parse a session, read it under a
 * profile (leaf, path, context, labels, name), list and build its tree, plan forks, index a file
 * with lazy bodies. PURE: no I/O, no Node APIs.
 */
export * from './types';
export {
  parseSession,
  parseSessionText,
  splitLines,
  ISSUE_KIND_TO_PI,
  H3_LOAD_ERRORS,
  type RawLine,
  type ParseOptions,
} from './rules/parse';
export { detectProfile, openProblem, PROFILE_RULES, type OpenProblem } from './rules/profile';
export {
  readPath,
  readSession,
  readSessionDetailed,
  type SessionReading,
  type DetailedReading,
  type PathReading,
  type ReadOptions,
} from './rules/reading';
export { readForGraph, type GraphReading } from './rules/graph-reading';
export { listTreeEntries, buildTree, type TreeEntry, type Tree } from './rules/tree';
export { entryColumns } from './rules/tree-columns';
export { treeShape, walkTree, type TreeShape } from './rules/tree-shape';
export { indexById, entriesFor } from './rules/entries';
export { entryRole } from './rules/entry-fields';
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
export { SessionIndexer, type IndexerOptions, type Decode } from './engine/session-index';
export { BodyError, type LineSource, type BodyCacheOptions } from './engine/line-source';
export { IndexedEntry, isIndexedEntry } from './engine/indexed-entry';
export { indexedParents } from './engine/first-parents';
export { scanEnvelope, newEnvelopeScan, type EnvelopeScan } from './engine/envelope-scan';
export { computeLabels, sessionName, type LabelState } from './rules/labels';
export type { ProjectedEntry, CaContext, H3Context } from './rules/context';

// What repo, the CLI and the bench use beyond reading a session: previews and usage of one entry
// (repo/session-bodies.ts skims bodies for them), the context view and fork preview, lineage.
export {
  contentText,
  previewEntry,
  PREVIEW_SKIM_KEYS,
  type EntryPreview,
  type CheckpointKind,
} from './rules/entry-preview';
export {
  entryUsageFact,
  ledgerOf,
  usageFactOf,
  usageRecordOf,
  type UsageFact,
  type CostLedger,
} from './rules/cost-ledger';
export { isPlainRecord } from './rules/parse';
export { TOO_DEEP_MARKER } from './rules/json-depth';
export { stringEnd } from './rules/json-string';
export { isV1Header, lineId } from './rules/migrate';
export { buildContextView, type ContextView, type ContextViewOptions } from './rules/context-view';
export { previewFork, type ForkPreview } from './rules/fork-preview';
export { forkPoint } from './rules/lineage';
export { JsonSkimmer, type SkimKeys } from './engine/json-skim';
export {
  findPayloads,
  contentCut,
  cutPayloads,
  contentPage,
  PAYLOAD_CUT_MARKER,
  PAYLOAD_IMAGE_MIN_BYTES,
  PAYLOAD_TEXT_MIN_BYTES,
  PAYLOAD_KEEP_BYTES,
  type Payload,
  type PayloadOptions,
} from './rules/payload-cut';

// Two branches compared from their common ancestor (the compare view and `canopy diff`).
export { compareBranches, commonAncestor, type CompareLeaf } from './rules/compare';
export { FileStates, editsOf, fileKey, ELISION, type FileText, type ShellRun } from './rules/file-state';
// Validation on a second thread for a big file's strict index pass (repo/validate-ahead.ts).
export { JsonLineValidator } from './engine/json-validate';
export { simdScan } from './rules/json-string-simd';
export {
  CHUNK as VERDICT_CHUNK,
  ChunkReader,
  chunkSource,
  helpWith,
  serveChunks,
  sharedChunks,
  type ChunkSource,
  type SharedChunks,
  type TakenChunk,
} from './engine/shared-chunks';
