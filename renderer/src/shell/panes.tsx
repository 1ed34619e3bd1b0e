/**
 * The panels as the app shows them: each feature's panel with the other features' pieces it
 * hosts. This is the one place that knows which feature draws inside which.
 */
import { CompactionInspector } from '../features/context/CompactionInspector';
import { ContextLegend } from '../features/context/ContextLegend';
import { EntryContextCard } from '../features/context/EntryContextCard';
import { WhatIfButton } from '../features/context/WhatIfButton';
import { ForkPanel } from '../features/fork/ForkPanel';
import { ForkResult } from '../features/fork/ForkResult';
import { GraphPanel } from '../features/graph/GraphPanel';
import type { NodeSlots } from '../features/graph/node-slots';
import { Inspector, type EntryCards } from '../features/inspector/Inspector';
import { EntryLineage } from '../features/lineage/EntryLineage';
import { LineageBar } from '../features/lineage/LineageBar';
import { LineageFlags } from '../features/lineage/LineageFlags';
import { SessionSecrets } from '../features/secrets/SessionSecrets';
import { ExportButton } from '../features/export/ExportButton';
import { DoctorButton } from '../features/doctor/DoctorButton';
import { TranscriptEntryBody } from '../features/inspector/TranscriptBody';
import { TranscriptPanel, type BodyRenderer } from '../features/transcript/TranscriptPanel';
import { FollowToggle } from '../features/transcript/FollowToggle';
import { TreeList } from '../features/tree-list/TreeList';
import { TreeListToggle } from '../features/tree-list/TreeListToggle';
import { useCanopy } from '../app-context';

function NodeWhatIf({ entryId }: { entryId: string }) {
  return <WhatIfButton entryId={entryId} compact />;
}

// Module-level: the node slots reach every node through context, a new object would redraw them all.
const NODE_SLOTS: NodeSlots = { Flags: LineageFlags, SelectedActions: NodeWhatIf };

export function GraphPane() {
  const middleView = useCanopy((s) => s.middleView);
  return (
    <GraphPanel
      nodeSlots={NODE_SLOTS}
      toolbarExtras={
        <>
          <TreeListToggle />
          <FollowToggle />
        </>
      }
      body={middleView === 'tree' ? <TreeList /> : undefined}
      banners={
        <>
          <ContextLegend />
          <LineageBar />
          <ForkResult />
          <SessionSecrets />
          <ExportButton />
          <DoctorButton />
        </>
      }
    />
  );
}

const entryCards: EntryCards = (detail, kind) => (
  <>
    <EntryContextCard entryId={detail.entryId} />
    <EntryLineage entryId={detail.entryId} />
    {detail.raw.type === 'compaction' && <CompactionInspector entryId={detail.entryId} />}
    <ForkPanel entryId={detail.entryId} isUserMessage={kind === 'user' && detail.raw.type === 'message'} />
  </>
);

export function InspectorPane() {
  return <Inspector cards={entryCards} />;
}

const transcriptBody: BodyRenderer = (detail) => <TranscriptEntryBody detail={detail} />;

export function TranscriptPane() {
  return <TranscriptPanel renderBody={transcriptBody} />;
}
