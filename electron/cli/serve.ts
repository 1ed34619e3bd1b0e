/** `canopy serve`: the app over HTTP on 127.0.0.1 (remote browsing over an SSH tunnel; the e2e tests). */
import { join, resolve } from 'node:path';
import { createAppServices } from '../app-services';
import type { CliCommand } from './cli-io';
import { startServer } from '../ipc/serve-http';
import { expandTilde, resolveRootsExplained } from '../repo/roots';
import { firstDirWith } from '../storage/static-files';
import { exitSoonIfStillRunning } from './process-exit';
import { teamRoots } from './serve-team';

/** Works from the sources (electron/) and from the bundle (out/cli/). */
function findRendererDir(): Promise<string | null> {
  return firstDirWith([join(__dirname, '../../out/renderer'), join(__dirname, '../renderer')], 'assets');
}

function findDemoDir(): Promise<string | null> {
  return firstDirWith([join(__dirname, '../resources/demo'), join(__dirname, '../../resources/demo')], null);
}

export const serveCommand: CliCommand = {
  summary: 'serve the app on 127.0.0.1 with a random token (open the printed URL)',
  usage: 'canopy serve [FILE|DIR]... [--root DIR]... [--db URL] [--port N] [--no-watch]',
  options: {
    root: { type: 'string', multiple: true },
    db: { type: 'string' },
    port: { type: 'string' },
    'no-watch': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  async run(args, io) {
    const portText = args.values.port as string | undefined;
    const port = portText === undefined ? 0 : Number(portText);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      io.stderr.write(`canopy serve: --port must be a number from 0 to 65535\n`);
      return 2;
    }
    const rendererDir = await findRendererDir();
    if (!rendererDir) {
      io.stderr.write(
        'canopy serve: the renderer is not built; run `npm run build` (or `npx canopy serve`, which builds it)\n',
      );
      return 1;
    }
    const demoDir = await findDemoDir();
    const { roots, notes } = resolveRootsExplained((args.values.root as string[] | undefined) ?? []);
    for (const note of notes) io.stdout.write(`canopy serve: ${note}\n`);
    // The team database's union, read-only beside the local roots (one root per machine).
    const team = await teamRoots(args, roots, io);
    if (typeof team === 'number') return team;
    const services = createAppServices({
      roots: [...roots, ...team],
      readOnlyRoots: team,
      openedFolders: args.positionals.map((p) => resolve(expandTilde(p))),
      transport: 'http',
      offload: true,
      watch: args.values['no-watch'] !== true,
      ...(demoDir ? { demoDir } : {}),
    });
    if (args.positionals.length > 0) {
      try {
        await services.catalog.openPaths(args.positionals);
      } catch (err) {
        await services.close();
        io.stderr.write(`canopy serve: ${(err as Error).message}\n`);
        return 1;
      }
    }
    const { catalog } = services;
    const server = await startServer({
      handlers: services.handlers,
      bus: services.bus,
      rendererDir,
      port,
      uploads: {
        stagingPath: () => catalog.uploadStagingPath(),
        accept: (name, staged) => catalog.upload(name, { staged }),
      },
    });
    await services.catalog.list();
    const read = services.catalog.isDemo()
      ? `no pi sessions in ${roots.join(', ')}: showing the demo sessions`
      : services.catalog.rootsForDisplay().join(', ');
    io.stdout.write(`Canopy is serving ${read}\nOpen ${server.url}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        void services.close();
        // The sockets are closed at once; a close that still waits does not hold the stop.
        void Promise.race([server.close(), new Promise((r) => setTimeout(r, 500).unref())]).then(() => resolve());
      };
      // SIGTERM and SIGINT keep their default action: the process ends at once, even while a long
      // request holds the event loop (a JS handler would wait for it). Nothing is lost: the index is
      // crash-safe (WAL; an unfinished first build is rebuilt) and the upload folder is swept at the next start.
      // Started by `npm start` (bin/start.cjs) with an IPC channel: when that parent dies, so does serve.
      if (process.connected) {
        process.once('disconnect', stop);
        process.channel?.unref(); // the channel alone must not keep serve running once it stops
      } else if (process.env.npm_command) {
        // Under npx/npm there is no channel, and a killed npm forwards nothing: an orphan is reparented.
        const parent = process.ppid;
        const watch = setInterval(() => {
          if (process.ppid !== parent) {
            clearInterval(watch);
            stop();
          }
        }, 500);
        watch.unref();
      }
    });
    exitSoonIfStillRunning(0);
    return 0;
  },
};
