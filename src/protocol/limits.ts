// The requests' numeric bounds, apart from their zod schemas: the CLI's help
// text shows them, and `sextant --help` should not load the schema library.
export const references = { LIMIT: 200, CAP: 2000 } as const;
export const workspaceSymbols = { LIMIT: 50, CAP: 500 } as const;
export const callHierarchy = { MAX_DEPTH: 5, LIMIT: 200, CAP: 1000 } as const;
export const typeHierarchy = { MAX_DEPTH: 5 } as const;
