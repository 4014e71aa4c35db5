// Counts calls of a node:fs function, as the code under test makes them
// through its named imports: node:fs's ESM exports follow the module object
// once synced (syncBuiltinESMExports).
import { createRequire, syncBuiltinESMExports } from 'node:module';

type Counted = 'statSync' | 'lstatSync';

export interface FsCalls {
  /** Calls since counting began. */
  readonly count: number;
  /** Puts the real function back. */
  restore(): void;
}

export function countFsCalls(name: Counted): FsCalls {
  const fs = createRequire(import.meta.url)('node:fs') as Record<Counted, (...args: unknown[]) => unknown>;
  const real = fs[name];
  let count = 0;
  fs[name] = (...args: unknown[]) => {
    count++;
    return real(...args);
  };
  syncBuiltinESMExports();
  return {
    get count() {
      return count;
    },
    restore() {
      fs[name] = real;
      syncBuiltinESMExports();
    },
  };
}
