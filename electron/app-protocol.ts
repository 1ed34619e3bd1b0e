/**
 * The renderer is served from `app://canopy/` instead of file:// (Electron's checklist): a file://
 * page may read any file://, an app:// page only what this handler gives it, which is the built
 * renderer folder and nothing else. Pure apart from reading that folder, so it is unit-tested.
 */
import { APP_SCHEME, isAppUrl } from './shared/app-origin';
import { CSP, readStaticFile } from './storage/static-files';

/** For protocol.registerSchemesAsPrivileged, before `ready`: a standard, secure origin (fetchable: Vite's module scripts load with CORS mode). */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/** The handler for protocol.handle(APP_SCHEME, …): files inside `rendererDir`, everything else refused. */
export function appProtocolHandler(
  rendererDir: string,
): (request: { url: string; method: string }) => Promise<Response> {
  return async (request) => {
    const refuse = (status: number, text: string) =>
      new Response(text, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'GET only');
    if (!isAppUrl(request.url)) return refuse(403, 'not an app URL');
    // The raw path: URL has already removed plain `..` segments; readStaticFile confines the decoded rest (%2e%2e, links).
    const file = await readStaticFile(rendererDir, new URL(request.url).pathname);
    if (!file) return refuse(404, 'not found');
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': file.contentType },
    });
  };
}
