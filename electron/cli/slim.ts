/** `canopy slim`: a slim copy of each session (images and long outputs replaced), never a write to the source. */
import { slimSession } from '../store-views';
import { resumeCommand } from '../shared/resume-command';
import {
  EXIT_FILE_ERROR,
  EXIT_OK,
  errorOf,
  formatSize,
  jsonLine,
  jsonOption,
  line,
  needFiles,
  stringOpt,
  UsageError,
  type CliCommand,
} from './cli-io';

function maxOutputOpt(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > Number.MAX_SAFE_INTEGER) {
    throw new UsageError('--max-output wants a number of bytes');
  }
  return Number(text);
}

export const slimCommand: CliCommand = {
  summary: 'new session file next to each FILE with images (and long outputs) replaced by notes',
  usage:
    'canopy slim FILE... [--drop-images] [--max-output BYTES] [--json]   (images go unless only --max-output is given)',
  options: { ...jsonOption, 'drop-images': { type: 'boolean' }, 'max-output': { type: 'string' } },
  async run(args, io) {
    const files = needFiles(args);
    const maxOutputBytes = maxOutputOpt(stringOpt(args, 'max-output'));
    const dropImages = args.values['drop-images'] === true || maxOutputBytes === undefined;
    let exit = EXIT_OK;
    for (const file of files) {
      try {
        const r = await slimSession(file, { dropImages, ...(maxOutputBytes !== undefined ? { maxOutputBytes } : {}) });
        if (args.values.json) {
          const { path, bytesBefore, bytesAfter, imagesRemoved, outputsCut } = r;
          jsonLine(io, { file, path, bytesBefore, bytesAfter, imagesRemoved, outputsCut });
        } else {
          line(io.stdout, `created ${r.path}`);
          line(
            io.stdout,
            `  ${formatSize(r.bytesBefore)} -> ${formatSize(r.bytesAfter)}, ${r.imagesRemoved} image(s) removed, ${r.outputsCut} output(s) cut`,
          );
          line(io.stdout, `  continue it with: ${resumeCommand(r.path)}`);
        }
      } catch (err) {
        exit = EXIT_FILE_ERROR;
        const error = errorOf(err);
        if (args.values.json) jsonLine(io, { file, error });
        else line(io.stderr, `${file}: ${error.code}: ${error.message}`);
      }
    }
    return exit;
  },
};
