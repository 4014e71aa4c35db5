// Loaded into an indexer that runs on node (`node --import` this file), before
// its own code: its large CommonJS modules (scip-typescript's typescript.js,
// 9 MB; scip-python's pyright) compile through V8's code cache
// (src/code-cache.ts). The indexer's main thread is the critical path of
// `sextant index`, and compiling is part of it: the whole module at start, then
// the checker's functions as a run first calls them. The cache is saved when
// the indexer exits, so that it holds every function the run compiled (one
// indexer run on kysely: 6.08 → 5.69 s, medians of 6 alternating runs). And
// it names JavaScript properties assigned on `this` as their classes' members
// where scip-typescript loads its symbol naming (this-properties-patch.ts),
// relates an interface's property to the one it narrows
// (property-signatures-patch.ts), relates an object literal's property to
// the members of a contextual union that declare it where not every member
// does (contextual-properties-patch.ts), names the members of object types
// written inside unions, intersections and the like (composed-types-patch.ts),
// relates no static member to another class's (static-members-patch.ts),
// indexes doc comments (doc-comments-patch.ts), and builds each project's
// program with the projects it references (project-references-patch.ts).
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, readSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { compileCached, type CachedScript } from '../code-cache.js';
import { ARGUMENTS_ENV, type IndexerArguments } from './indexer-arguments.js';
import type * as ts from 'typescript';
import { patchComposedTypes } from './composed-types-patch.js';
import { hasContextualPropertyHelpers, patchContextualProperties } from './contextual-properties-patch.js';
import { patchDocComments } from './doc-comments-patch.js';
import { withProjectReferences } from './project-references-patch.js';
import { patchPropertySignatures } from './property-signatures-patch.js';
import { patchStaticMembers } from './static-members-patch.js';
import { patchSyntaxFacts, syntaxFactsWriter } from './syntax-facts-patch.js';
import { patchFileIndexer } from './this-properties-patch.js';

/** Modules smaller than this compile in a few ms: a cache would cost about as much to read. */
const CACHED_MODULE_BYTES = 1 << 20;

type Compile = (this: Module, content: string, filename: string) => unknown;
type Load = (module: Module, filename: string) => void;
const prototype = Module.prototype as unknown as { _compile: Compile };
const compile = prototype._compile;
const extensions = (Module as unknown as { _extensions: Record<string, Load> })._extensions;
const loadJs = extensions['.js']!;
const compiled: CachedScript[] = [];
/** The hash of the bytes of the large module being loaded (see the `.js` loader below). */
let loading: { filename: string; id: string } | undefined;

// node reads a CommonJS module as `readFileSync(filename, 'utf8')`, which on
// node 20 took 83 ms of the indexer's start for typescript.js (9 MB): read as
// bytes, 14 ms, and decoded as Latin-1 where it is ASCII (it is), under 1 ms.
// The bytes are hashed for the cache's name as well (5 ms against 10-31 for
// the string). Only large modules are read this way, node's own loader reads
// the rest; a large module of a package whose type is "module", which node
// refuses to require, fails here as CommonJS that does not compile instead.
extensions['.js'] = function (module, filename) {
  let bytes: Buffer | undefined;
  try {
    if (statSync(filename).size >= CACHED_MODULE_BYTES) bytes = readFileSync(filename);
  } catch {
    // node's loader reports what is wrong with the file.
  }
  if (!bytes) return loadJs(module, filename);
  loading = { filename, id: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
  try {
    prototype._compile.call(module, isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'), filename);
  } finally {
    loading = undefined;
  }
};

prototype._compile = function (content, filename) {
  if (content.length < CACHED_MODULE_BYTES) {
    const source = filename.endsWith(PROJECT_INDEXER) ? withProjectReferences(content, createRequire(filename)('typescript')) : content;
    const result = compile.call(this, source, filename);
    if (filename.endsWith(FILE_INDEXER)) patchScipTypescript(this.exports, filename);
    return result;
  }
  let run: (...args: unknown[]) => unknown;
  try {
    // Named by a hash of the text: V8 tells sources apart by their length alone.
    const id = loading?.filename === filename ? loading.id : createHash('sha256').update(content, 'latin1').digest('hex').slice(0, 16);
    const cached = compileCached(filename, Module.wrap(content), `indexer-${basename(filename)}`, id);
    run = cached.script.runInThisContext() as typeof run;
    compiled.push(cached);
  } catch {
    // Whatever went wrong compiling this way, node's own loader compiles it (and reports a real syntax error).
    return compile.call(this, content, filename);
  }
  // As node's loader calls a module's wrapper; what the module itself throws is the indexer's to report.
  return run.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
};

/** scip-typescript's module that names, relates and visits symbols: see the patches below. */
const FILE_INDEXER = join('@sourcegraph', 'scip-typescript', 'dist', 'src', 'FileIndexer.js');
/** scip-typescript's module that makes each project's program. */
const PROJECT_INDEXER = join('@sourcegraph', 'scip-typescript', 'dist', 'src', 'ProjectIndexer.js');

/** Patches a scip-typescript whose internals are the ones the patches were written for; another is left as it is. */
function patchScipTypescript(exports: { FileIndexer?: { prototype: FileIndexerPrototype } }, filename: string): void {
  const prototype = exports.FileIndexer?.prototype;
  if (!prototype) return;
  try {
    const require = createRequire(filename);
    const tsc = require('typescript') as typeof ts;
    const { ScipSymbol } = require('./ScipSymbol.js') as { ScipSymbol?: { global?(owner: unknown, descriptor: unknown): never } };
    const { termDescriptor, typeDescriptor, metaDescriptor } = require('./Descriptor.js') as {
      termDescriptor?(name: string): unknown;
      typeDescriptor?(name: string): unknown;
      metaDescriptor?(name: string): unknown;
    };
    const { scip } = require('./scip.js') as {
      scip?: { Relationship?: new (fields: object) => unknown; SymbolInformation?: new (fields: object) => unknown };
    };
    const global = ScipSymbol?.global?.bind(ScipSymbol);
    const SymbolInformation = scip?.SymbolInformation;
    const Relationship = scip?.Relationship;
    const naming = typeof prototype.scipSymbol === 'function' && typeof prototype.cached === 'function';
    if (naming && global && termDescriptor && SymbolInformation && Relationship)
      patchFileIndexer(prototype, {
        ts: tsc,
        global,
        termDescriptor,
        symbolInformation: (fields) => new SymbolInformation(fields),
        relationship: (fields) => new Relationship(fields),
      });
    if (naming && typeof prototype.descriptor === 'function' && global && metaDescriptor)
      patchComposedTypes(prototype as Parameters<typeof patchComposedTypes>[0], { ts: tsc, global, metaDescriptor });
    const walks = typeof prototype.visit === 'function' && typeof prototype.visitSymbolOccurrence === 'function';
    if (walks && global && typeDescriptor && termDescriptor && SymbolInformation)
      patchDocComments(prototype as Parameters<typeof patchDocComments>[0], {
        ts: tsc,
        global,
        typeDescriptor,
        termDescriptor,
        symbolInformation: (fields) => new SymbolInformation(fields),
      });
    if (factsWriter && typeof prototype.index === 'function')
      patchSyntaxFacts(prototype as Parameters<typeof patchSyntaxFacts>[0], factsWriter);
    if (typeof prototype.getDeclarationsForPropertyAssignment === 'function' && hasContextualPropertyHelpers(tsc))
      patchContextualProperties(prototype as Parameters<typeof patchContextualProperties>[0], tsc);
    if (typeof prototype.relationships === 'function' && typeof prototype.forEachAncestor === 'function' && Relationship)
      patchPropertySignatures(prototype as Parameters<typeof patchPropertySignatures>[0], {
        ts: tsc,
        relationship: (fields) => new Relationship(fields),
      });
    if (typeof prototype.relationships === 'function' && typeof prototype.forEachAncestor === 'function')
      patchStaticMembers(prototype as Parameters<typeof patchStaticMembers>[0], tsc);
  } catch {
    // The indexer runs unpatched: this-properties are its locals, related by
    // name (see prepare.ts), members of object types inside unions and
    // intersections are locals, property signatures are related to nothing,
    // static members are related to other classes' members of their name, an
    // object literal's key typed by a union sets what scip-typescript finds,
    // doc comments are not indexed, and sextant parses every file for its facts.
  }
}

type FileIndexerPrototype = Parameters<typeof patchFileIndexer>[0] &
  Partial<Parameters<typeof patchSyntaxFacts>[0]> &
  Partial<Parameters<typeof patchContextualProperties>[0]> &
  Partial<Parameters<typeof patchComposedTypes>[0]> &
  Partial<Parameters<typeof patchPropertySignatures>[0]> &
  Partial<Parameters<typeof patchStaticMembers>[0]> &
  Partial<Parameters<typeof patchDocComments>[0]>;

/** False in an indexer started ahead that the run did not need: what it compiled is not the run's (see below). */
let ran = true;

process.on('exit', () => {
  if (ran) for (const cached of compiled) cached.save();
});

/**
 * An indexer started ahead (indexer-process.ts) loads its TypeScript, the
 * largest part of its start, while sextant plans, then waits for its
 * arguments. The wait blocks: nothing else is to be done until they come.
 */
function awaitArguments(): void {
  if (process.env[ARGUMENTS_ENV] !== 'stdin') return;
  delete process.env[ARGUMENTS_ENV];
  try {
    createRequire(process.argv[1]!)('typescript');
  } catch {
    // An indexer without it (or without a main module) reports that itself once it runs.
  }
  const message = readLine(0);
  if (!message) {
    ran = false;
    process.exit(0);
  }
  const { args, cwd } = JSON.parse(message) as IndexerArguments;
  process.chdir(cwd);
  process.argv.push(...args);
}

/**
 * The first line of `fd`: until a newline, not the end, which sextant may
 * only get to send once its main thread is free again (its ingest starts with
 * the indexer). Empty when it ends first, or cannot be read.
 */
function readLine(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  try {
    for (let read; (read = readSync(fd, buffer)) > 0;) {
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      if (buffer.subarray(0, read).includes(10)) break;
    }
  } catch {
    // No stdin to read: as good as an empty one.
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.endsWith('\n') ? text : '';
}

// Last: the TypeScript they load compiles through the code cache above.
awaitArguments();
const factsWriter = await syntaxFactsWriter();
