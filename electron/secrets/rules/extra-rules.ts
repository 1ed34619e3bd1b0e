/**
 * Rules secretlint's recommended preset lacks, ported as data from gitleaks (MIT License,
 * Copyright (c) 2019 Zachary Rice; config/gitleaks.toml): JSON Web Tokens carry signed sessions
 * and API grants and are pasted into sessions as often as keys are. PURE.
 */
import type { SecretMatch, SecretMatcher } from './types';

interface PatternRule {
  rule: string;
  /** Global regex; `group` is the capture that holds the secret (0 = the whole match). */
  pattern: RegExp;
  group: number;
}

const RULES: PatternRule[] = [
  // gitleaks `jwt`: header and payload are base64url JSON objects, hence both start with "ey".
  {
    rule: 'jwt',
    pattern: /\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/\\_-]{17,}\.(?:[a-zA-Z0-9/\\_-]{10,}={0,2})?)(?:['|"\n\r\s\x60;]|$)/g,
    group: 1,
  },
];

export const extraRulesMatcher: SecretMatcher = (text) => {
  const out: SecretMatch[] = [];
  if (!text.includes('ey')) return out;
  for (const r of RULES) {
    for (const m of text.matchAll(r.pattern)) {
      const value = m[r.group]!;
      const start = m.index + m[0].indexOf(value);
      out.push({ start, end: start + value.length, rule: r.rule });
    }
  }
  return out;
};
