// The longest text argument of each kind a request accepts, declared once:
// the protocol schemas (src/protocol/common.ts `arg`) refuse longer ones with
// a message naming the limit, before any lookup runs, so no reply grows with
// its input and no query is built from unbounded text. Kept free of imports
// so the command line can check its arguments without loading zod.
export const MAX_REPO_LENGTH = 128; // what a registered name can be (SLUG_PATTERN in src/registry/repos.ts)
export const MAX_PATH_LENGTH = 4096; // PATH_MAX on Linux
export const MAX_SYMBOL_LENGTH = 1000;
export const MAX_QUERY_LENGTH = 1000;
export const MAX_LIST_LENGTH = 100; // items in a list argument (extensions, repos)
