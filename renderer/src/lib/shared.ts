/**
 * The renderer's window onto electron/shared (types and pure helpers only). One import site keeps
 * the relative path in a single place.
 */
export type { Api, Args, Channel, EventName, Events, PiHandbackDto, ResultOf } from '../../../electron/shared/contract';
export { CHANNELS, EVENTS, channelMethods, isEventName } from '../../../electron/shared/contract';
export type {
  AppInfo,
  CheckpointKind,
  EntryDetailDto,
  EntryNodeDto,
  EntryPreviewDto,
  IssueDto,
  PayloadDto,
  PayloadPageDto,
  ProfileDto,
  ProjectDto,
  SearchHitDto,
  SearchResultDto,
  SearchStatusDto,
  SessionGraphDto,
  SessionListDto,
  SessionRowDto,
  SessionsChangeDto,
  SessionSummaryDto,
  SkippedDto,
} from '../../../electron/shared/dto';
export type {
  ContinueResultDto,
  KeepChangedDto,
  KeepPatchDto,
  KeepRecordDto,
  TrashPreviewDto,
  TrashRecordDto,
} from '../../../electron/shared/keep-dto';
export { tagsInUse } from '../../../electron/shared/keep-tags';
export type {
  CompactionInfoDto,
  ContextMessageDto,
  ContextViewDto,
  CostLedgerDto,
  DerivedStateDto,
  EntryContextStateDto,
  EntryStateDto,
  EntryStatesDto,
  ForkPreviewDto,
  ForkRefusalKind,
  ForkRequestDto,
  ForkResultDto,
  LastUsageDto,
  LineageDto,
  LineageLinkDto,
  SourcedDto,
  SystemStateDto,
} from '../../../electron/shared/context-dto';
export { ENTRY_STATES, entryStateAt } from '../../../electron/shared/entry-states';
export { graphFromWire, unpackEntryNodes, type SessionGraphWireDto } from '../../../electron/shared/entry-nodes';
export {
  applyContextDelta,
  applyGraphDelta,
  type SessionAppendedDto,
  type SessionContextChangedDto,
} from '../../../electron/shared/live-dto';
export type { ErrorCode, ErrorValue, Result } from '../../../electron/shared/errors';
export type {
  ExportFormatDto,
  ExportPreviewDto,
  ExportRequestDto,
  ExportWriteDto,
  LedgerEntryDto,
  RedactionsDto,
  SecretFindingDto,
  SecretsStatusDto,
  SessionSecretsDto,
} from '../../../electron/shared/share-dto';
export type {
  DoctorFileDto,
  DoctorMarkDto,
  DoctorReportDto,
  DoctorStoreDto,
  DoctorStoreRowDto,
} from '../../../electron/shared/doctor-dto';
export { isNoteIssue } from '../../../electron/shared/dto';
export { isErrorCode } from '../../../electron/shared/errors';
export { isId } from '../../../electron/shared/validate';
export { resumeCommand, resumeCommandIn } from '../../../electron/shared/resume-command';
export type {
  SlimPreviewDto,
  SlimRequestDto,
  SlimResultDto,
  StorageRowDto,
  StoreReportDto,
  UsageRowDto,
} from '../../../electron/shared/store-dto';
export type { ArchiveFamilyDto, ArchivePreviewDto, ArchiveResultDto } from '../../../electron/shared/store-dto';
export type {
  CompareDto,
  CompareEntryDto,
  CompareFileDto,
  CompareRowDto,
  CompareSideDto,
  CompareTurnDto,
  CompareVersusDto,
} from '../../../electron/shared/compare-dto';
