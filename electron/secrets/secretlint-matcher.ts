/**
 * secretlint's recommended preset (@secretlint/secretlint-rule-preset-recommend) as a synchronous
 * SecretMatcher. The rules are driven through secretlint's public rule API (each rule's
 * `create(context)` and its `file(source)` handler), not through @secretlint/core's lintSource:
 * that one is async and builds a context per call, 6× slower per entry string here; the rules'
 * text handlers themselves are synchronous (only the GCP .p12 check, which reads a file by path,
 * is async, and it never runs: no path is given). Filter rules (secretlint-disable comments) are
 * left out: text inside a session must not be able to hide a secret from the radar.
 */
import { rules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintRuleContext, SecretLintSourceCode } from '@secretlint/types';
import { extraRulesMatcher } from './rules/extra-rules';
import { highEntropyMatcher } from './rules/entropy';
import { type SecretMatch, type SecretMatcher } from './rules/types';

const PREFIX = '@secretlint/secretlint-rule-';

interface Driven {
  rule: string;
  file: (source: SecretLintSourceCode) => unknown;
}

/**
 * Options the radar gives rules (by rule id): AWS access key ids are reported too (secretlint
 * reports only secret keys by default; an id names the account and is redacted from a share).
 */
export const RULE_OPTIONS: Record<string, object> = { [`${PREFIX}aws`]: { enableIDScanRule: true } };

let sink: SecretMatch[] = [];

function drive(): Driven[] {
  const out: Driven[] = [];
  for (const creator of rules) {
    if (creator.meta.type !== 'scanner') continue;
    const rule = creator.meta.id.startsWith(PREFIX) ? creator.meta.id.slice(PREFIX.length) : creator.meta.id;
    const context: SecretLintRuleContext = {
      sharedOptions: {},
      // Messages are not used: a message would carry the secret itself.
      createTranslator: (() => () => ({
        message: '',
        messageId: '',
        data: {},
      })) as unknown as SecretLintRuleContext['createTranslator'],
      report: (d) => {
        sink.push({ start: d.range[0], end: d.range[1], rule });
      },
      ignore: () => undefined,
    };
    const handler = creator.create(context, (RULE_OPTIONS[creator.meta.id] ?? {}) as never);
    if (handler.file) out.push({ rule, file: handler.file.bind(handler) });
  }
  return out;
}

let driven: Driven[] | undefined;

function source(content: string): SecretLintSourceCode {
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    // Rules use offsets (ranges); positions are not needed by the text scanners.
    locationToRange: () => [0, 0],
    rangeToLocation: () => ({ start: { line: 1, column: 0 }, end: { line: 1, column: 0 } }),
  } as unknown as SecretLintSourceCode;
}

/** secretlint's recommended rules over one string. */
export const secretlintMatcher: SecretMatcher = (text) => {
  if (text.length < 8) return [];
  driven ??= drive();
  const src = source(text);
  const found: SecretMatch[] = [];
  for (const d of driven) {
    sink = [];
    const r = d.file(src);
    // An async handler (never for text without a path) is ignored rather than awaited.
    if (r instanceof Promise) r.catch(() => undefined);
    for (const m of sink) if (m.end > m.start && m.end <= text.length) found.push(m);
  }
  sink = [];
  return found;
};

/** The radar's matchers: secretlint's preset, the ported gitleaks rules, keyed high entropy. */
export const SECRET_MATCHERS: readonly SecretMatcher[] = [secretlintMatcher, extraRulesMatcher, highEntropyMatcher];

/** Names the rule set a cache was built with: another preset version or radar rule rescans all. */
export const SECRET_RULES_VERSION = `preset-recommend@13.0.7+radar@2`;
