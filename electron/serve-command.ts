/** `canopy serve`: the app over HTTP on 127.0.0.1 (remote browsing over an SSH tunnel; the e2e tests). */
import { join } from 'node:path';
import { createAppServices } from './app-services';
import type { CliCommand } from './cli';
import { startServer } from './ipc/serve-http';
import { resolveRoots } from './repo/roots';
import { firstDirWith } from './storage/static-files';

/** Works from the sources (electron/) and from the bundle (out/cli/). */
function findRendererDir(): Promise<string | null> {
  return firstDirWith([join(__dirname, '../out/renderer'), join(__dirname, '../renderer')], 'assets');
}

function findDemoDir(): Promise<string | null> {
  return firstDirWith([join(__dirname, '../resources/demo'), join(__dirname, '../../resources/demo')], null);
}

export const serveCommand: CliCommand = {
  summary: 'serve the app on 127.0.0.1 with a random token (open the printed URL)',
  usage: 'canopy serve [--root DIR]... [--port N] [--no-watch]',
  options: { root: { type: 'string', multiple: true }, port: { type: 'string' }, 'no-watch': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  async run(args, io) {
    const portText = args.values.port as string | undefined;
    const port = portText === undefined ? 0 : Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      io.stderr.write(`canopy serve: --port must be a number from 0 to 65535\n`);
      return 2;
    }
    const rendererDir = await findRendererDir();
    if (!rendererDir) {
      io.stderr.write('canopy serve: the renderer is not built; run `npm run build` (or `npx canopy serve`, which builds it)\n');
      return 1;
    }
    const demoDir = await findDemoDir();
    const services = createAppServices({
      roots: resolveRoots((args.values.root as string[] | undefined) ?? []),
      transport: 'http',
      watch: args.values['no-watch'] !== true,
      ...(demoDir ? { demoDir } : {}),
    });
    const server = await startServer({ handlers: services.handlers, bus: services.bus, rendererDir, port });
    io.stdout.write(`Canopy is serving ${services.catalog.rootsForDisplay().join(', ')}\nOpen ${server.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        services.close();
        void server.close().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};
