import { lintSource } from '@secretlint/core';
import { creator } from '@secretlint/secretlint-rule-preset-recommend';
import { describe, expect, it } from 'vitest';
import { matchText } from '../../electron/secrets/rules/scan';
import { RULE_OPTIONS, SECRET_MATCHERS, secretlintMatcher } from '../../electron/secrets/secretlint-matcher';
import { Rng } from '../fixtures/corpus/rng';
import { decoys, plantedSecrets } from '../fixtures/secrets/planted';

describe('the secret matchers', () => {
  it('find a planted secret of every rule family, covering its value', () => {
    for (let seed = 1; seed <= 20; seed++) {
      for (const p of plantedSecrets(new Rng(seed))) {
        const hits = matchText(p.text, null, SECRET_MATCHERS);
        expect(
          hits.map((h) => h.rule),
          `${p.family} (seed ${seed})`,
        ).toContain(p.rule);
        const covers = (h: { start: number; end: number }) => {
          const covered = p.text.slice(h.start, h.end);
          return covered.includes(p.value) || p.value.includes(covered);
        };
        expect(
          hits.some((h) => h.rule === p.rule && covers(h)),
          p.family,
        ).toBe(true);
      }
    }
  });

  it('flag no decoy (UUIDs, digests, integrity hashes, ids, paths): false-positive rate 0 of 160', () => {
    const flagged = decoys(new Rng(7)).filter((d) => matchText(d, null, SECRET_MATCHERS).length > 0);
    expect(flagged).toEqual([]);
  });

  it("drive secretlint's rules synchronously with the same findings as secretlint's own lintSource", async () => {
    const config = {
      rules: [
        {
          id: creator.meta.id,
          rule: creator,
          rules: Object.entries(RULE_OPTIONS).map(([id, options]) => ({ id, options })),
        },
      ],
    };
    for (const p of plantedSecrets(new Rng(3))) {
      const theirs = await lintSource({
        source: { content: p.text, filePath: '/x.txt', ext: '.txt', contentType: 'text' },
        options: { config, maskSecrets: true },
      });
      const ours = secretlintMatcher(p.text, null);
      expect(
        ours.map((m) => [m.start, m.end]),
        p.family,
      ).toEqual(theirs.messages.map((m) => [m.range[0], m.range[1]]));
    }
  });
});
