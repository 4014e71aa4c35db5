// The requests' bounds, declared once and kept free of imports, so the
// command line can show and check them without loading the schema library.

// The longest text argument of each kind a request accepts: the protocol
// schemas (src/protocol/common.ts `arg`) refuse longer ones with a message
// naming the limit, before any lookup runs, so no reply grows with its input
// and no query is built from unbounded text.
export const MAX_REPO_LENGTH = 128; // what a registered name can be (SLUG_PATTERN in src/registry/repos.ts)
export const MAX_PATH_LENGTH = 4096; // PATH_MAX on Linux
export const MAX_SYMBOL_LENGTH = 1000;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_LIST_LENGTH = 100; // items in a list argument (extensions, repos)

// Numeric bounds: defaults and caps of limits and depths.
export const references = { LIMIT: 200, CAP: 2000 } as const;
export const workspaceSymbols = { LIMIT: 50, CAP: 500 } as const;
export const callHierarchy = { MAX_DEPTH: 5, LIMIT: 200, CAP: 1000 } as const;
export const typeHierarchy = { MAX_DEPTH: 5 } as const;
