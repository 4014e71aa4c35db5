// Where the project lives, seen from compiled tests (dist/test/...).
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
export const SEXTANT_BIN = fileURLToPath(new URL('../../../bin/sextant.js', import.meta.url));
