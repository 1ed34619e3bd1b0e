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
// (repo/session-bodies.ts skims bodies for them), the context view and fork preview, lineage, search rules.
export { previewEntry, PREVIEW_SKIM_KEYS, type EntryPreview, type CheckpointKind } from './rules/entry-preview';
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
export { buildContextView, type ContextView, type ContextViewOptions } from './rules/context-view';
export { previewFork, type ForkPreview } from './rules/fork-preview';
export { forkPoint } from './rules/lineage';
export { JsonSkimmer, type SkimKeys } from './engine/json-skim';
export {
  parseSearchQuery,
  makeSnippet,
  matchEntry,
  requiredSubstrings,
  termsMetBySession,
  type SearchQuery,
  type Snippet,
} from './search/search-query';
export {
  searchFields,
  searchTimeIso,
  indexedText,
  isV1Header,
  v1EntryId,
  SEARCH_ROLES,
  type SearchRole,
  type SearchFields,
} from './search/search-text';
export { rawLineTest, rawNeedles, type RawLineTest } from './search/raw-filter';
export { charRarity, wordRarity } from './search/letter-rarity';
export { regexSpanTest, type RegexSpanTest } from './search/regex-raw';
export {
  blockTerms,
  LONG_WORD,
  MAX_GLUED,
  MAX_TERM_CHARS,
  substringPlan,
  wordTokens,
  type SubstringPlan,
  type TailQuery,
  type TermSource,
} from './search/word-tokens';
export { ftsTerm, indexedBlock } from './search/fts-terms';

export {
  findPayloads,
  cutPayloads,
  contentPage,
  PAYLOAD_CUT_MARKER,
  PAYLOAD_IMAGE_MIN_BYTES,
  PAYLOAD_TEXT_MIN_BYTES,
  PAYLOAD_KEEP_BYTES,
  type Payload,
  type PayloadOptions,
} from './rules/payload-cut';

// The secret radar (what is scanned, generic rules, masking, redaction) and exports (HTML, Markdown).
export {
  CUSTOM_RULE,
  type SecretMatch,
  type SecretMatcher,
  type EntryMatch,
  type SecretFinding,
} from './secrets/types';
export { maskSecret } from './secrets/mask';
export { entryTexts, type EntryText } from './secrets/entry-texts';
export { highEntropyMatcher, shannonEntropy, looksRandom, isSecretKeyName, HIGH_ENTROPY_RULE } from './secrets/entropy';
export { extraRulesMatcher } from './secrets/extra-rules';
export { matchText, scanEntryObject, entryFindings } from './secrets/scan';
export {
  redactEntry,
  redactText,
  redactionMarker,
  userRedactionMatcher,
  type Replacement,
  type UserRedactions,
} from './secrets/redact';
export { DeepRedactor } from './secrets/redact-deep';
export { entryView, type Block, type EntryView } from './export/entry-view';
export { firstLine, scopeLine, type ExportMeta } from './export/export-meta';
export { escapeHtml, imageDataUrl } from './export/html-escape';
export { renderHtml, EXPORT_CSP } from './export/html';
export { renderMarkdown } from './export/markdown';
// The whole store (usage, storage, slim copies): facts read per line, fork families, spend counted once.
export { FactReader, spendOf, type EntryFact, type HeaderFact, type SpendFact } from './store/store-facts';
export { scanLineBlocks, base64Bytes, type ImageBlock, type OutputString, type LineBlocks } from './store/block-scan';
export { familiesOf, activePath, entryKey, utcDay, type SessionFacts } from './store/store-families';
export {
  UsageAccumulator,
  parseGroupKeys,
  USAGE_GROUP_KEYS,
  type UsageGroupKey,
  type UsageGroup,
  type UsageOptions,
  type UsageReport,
  type SpendTotals,
  type SpendSplit,
} from './store/usage';
export {
  slimLine,
  slimHeader,
  imageNote,
  outputNote,
  sizeText,
  type SlimOptions,
  type SlimLine,
} from './store/slim-plan';
export {
  StorageAccumulator,
  splitSession,
  emptySplit,
  type StorageSplit,
  type SessionStorage,
  type FamilyStorage,
  type StorageReport,
  type StorageOptions,
} from './store/storage-split';
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
