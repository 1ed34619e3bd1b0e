/**
 * A `type: "session"` header saying `version: 4` over v3 lines: pi's coding agent reads it as v3
 * (4 >= 3, nothing to migrate), and Canopy must read it the same; a format 4 log stays refused.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSessionText, readSession } from '../../electron/core';
import { assistant, header, jsonl, label, user } from '../core/helpers';
import { piRead } from '../oracle/pi-oracle';
import { tempDir } from '../storage/tmp';
import { roundTrip } from './support';

describe('differential: header version 4 over v3 lines', () => {
  it('reads as pi-coding-agent reads it (CA): same leaf, path, context, labels and name', async () => {
    const dir = await tempDir('canopy-v4-');
    const text = jsonl([
      header({ version: 4 }),
      user('u1', null),
      assistant('a1', 'u1'),
      user('u2', 'a1'),
      label('l1', 'u2', 'u1', 'start'),
    ]);
    const file = join(dir, 'v4.jsonl');
    writeFileSync(file, text);
    const pi = await piRead(file, 'ca', { scratchDir: dir });
    if (!pi.ok) throw new Error(`pi refused the file: ${pi.error.message}`);
    const parsed = parseSessionText(text);
    expect(parsed.fatal).toBeUndefined();
    expect(parsed.issues.map((i) => [i.line, i.kind])).toEqual([[1, 'unsupported_version']]);
    const canopy = readSession(parsed, { profile: 'ca' });
    expect(parsed.entries.map((e) => e.id)).toEqual(pi.entryIds);
    expect({
      leafId: canopy.leafId,
      pathIds: canopy.pathIds,
      contextEntryIds: canopy.contextEntryIds,
      context: roundTrip(canopy.context),
      labels: canopy.labels,
      sessionName: canopy.sessionName,
    }).toEqual(pi.reading);
  });

  it('a format 4 log keeps its refusal', () => {
    const s = parseSessionText(jsonl([{ v: 4, kind: 'header', id: 's', storageVersion: 1, createdAt: 1, cwd: '/' }]));
    expect(s.fatal).toEqual({ code: 'unsupported_format', message: 'format 4 is not supported yet' });
  });
});
