import { readFileSync } from 'node:fs';
import { projectFile } from '../paths.js';

export const VERSION: string = (JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string }).version;
