import { createContext, useContext } from 'react';

/** True inside the transcript: tool calls start collapsed, images are placeholders (the inspector shows them whole). */
export const CompactContext = createContext(false);
export const useCompact = (): boolean => useContext(CompactContext);
