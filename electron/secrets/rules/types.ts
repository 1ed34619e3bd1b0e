/** Shapes of the secret radar. PURE. */

/** One match inside one string: UTF-16 offsets into it and the rule that found it. */
export interface SecretMatch {
  start: number;
  end: number;
  /** Short rule name: `aws`, `github`, `jwt`, `high-entropy`, `custom`, … */
  rule: string;
}

/**
 * Finds secrets in one string. `key` is the JSON key the string is the value of (null in an array
 * or at the top), so a matcher can judge `{"apiKey": "…"}` by its key position.
 */
export type SecretMatcher = (text: string, key: string | null) => SecretMatch[];

/** A match located in an entry: the JSON pointer of the string it lies in. */
export interface EntryMatch extends SecretMatch {
  pointer: string;
}

/** What is reported and stored: never the value, only its masked form. */
export interface SecretFinding {
  entryId: string;
  /** Physical line of the entry in its file (1-based). */
  line: number;
  rule: string;
  /** JSON pointer of the string holding the match (e.g. `/message/content/0/arguments/command`). */
  pointer: string;
  masked: string;
}

/** The rule name of the user's own redaction literals and regexes (matched exactly as given). */
export const CUSTOM_RULE = 'custom';
