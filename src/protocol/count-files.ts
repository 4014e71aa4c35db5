// countFiles: how many entries findFiles would match, without listing them.
import { z } from 'zod';
import { params } from './common.js';
import { filters, ScanState } from './find-files.js';

export const name = 'countFiles';
export const description =
  'Count the tracked files and directories of indexed repositories that match the findFiles filters, without listing ' +
  'them: cheaper than findFiles when the question is how many, or whether any.';

export const Params = params(filters);
export type Params = z.input<typeof Params>;

export const Result = z.object({
  count: z.int(),
  duration_ms: z.int(),
  scan_state: ScanState,
});
export type Result = z.infer<typeof Result>;
