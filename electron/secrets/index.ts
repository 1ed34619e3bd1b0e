/**
 * The secret radar's facade (docs/architecture.md): the app's radar (a worker thread), the service
 * the CLI and bench run in-process, and the matchers and redaction an export is given.
 */
export { AppSecrets } from './app-secrets';
export { redactEntry, userRedactionMatcher, type Replacement, type UserRedactions } from './rules/redact';
export type { SecretMatcher } from './rules/types';
export { SECRET_MATCHERS } from './secretlint-matcher';
export { SecretsService } from './secrets-service';
