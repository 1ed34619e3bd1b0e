/**
 * The search wing's facade (docs/architecture.md): the app's search (a worker thread), the service
 * the CLI and bench run in-process, and the query language's parse. Nothing else leaves the wing.
 */
export { AppSearch } from './app-search';
export type { SearchHit } from './candidate-check';
export { parseSearchQuery } from './rules/search-query';
export { searchTimeIso } from './rules/search-text';
export { SearchService, type QueryArgs } from './search-service';
