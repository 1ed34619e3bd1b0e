/**
 * The secret radar's facade (docs/architecture.md): the app's radar (a worker thread), the service
 * the CLI and bench run in-process, and the redaction an export is handed.
 */
export { AppSecrets } from './app-secrets';
export { redactor } from './redactor';
export { SecretsService } from './secrets-service';
