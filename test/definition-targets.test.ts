// Where goToDefinition lands, checked against typescript-language-server on
// the same tree. A module named by an identifier (`import * as e`, `e.fail`)
// is defined at its file's first token, past a licence header, JSDoc blocks or
// a `#!` line; its specifier (`'./errors.js'`) goes to the file's start. A
// shorthand property (`{ check }`) and a destructured name (`const { kind } =
// input`) declare one symbol and use another: the server answers what they
// use. A JavaScript class's property is declared by each `this.parent = ...`
// of its constructor and methods, wherever it is used, though another class
// has a property of that name. A union's discriminant
// given a literal (`{ type: 'plus', expr }`) is the member it picks out, and
// so is another property beside it, of named members. An
// interface's property narrowed by interfaces that extend it is one property
// to findReferences, at the base's, at each narrowing's, and through a union
// of them, and so is a property subclasses implement by getters, with every
// getter. A getter and the setter of its name, static or not, are one
// property at either declaration. A literal picking out a union's anonymous
// member from another file, which the index names by a local of the union's
// file, answers none of the named members declaring other literals. A class a CommonJS build exports by assignment (`exports.Server =
// Server`) is the class, from the export too, and its `exports` the file. A
// getter of `module.exports = {...}` is the export of its name, though the
// module has a variable of that name too (webpack's `syntax.js`). A call of
// the function a module assigns whole (`module.exports = (C) =>
// ...`) goes to the function, named by `exports`; the importer's binding, to
// the assignment, from `module`. Doc comments are code: a property of an
// object literal typed by a comment's type literal (`@returns {{ assign:
// boolean }}`) goes there, from another file too, and `{@link f}` is a
// reference of f. A literal's tag picks out the member of a union of type
// aliases' object types too, beside a shorthand naming the value it uses. A
// literal's property is the one it sets of each member of a contextual union
// that declares it (an optional tuple element's, `{...} | undefined`). A JSX
// tag is a use of its component, or of the member it names. A call of a
// class field initialised with a function
// (`getName = (field) => {...}`) goes to the function: its whole span, or its
// name when it has one; a read of the field, to the field.
import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gitRepoOf, removeDir } from './support/repos.js';
import { indexOrThrow, mcpSession, testHome, type McpSession } from './support/sextant.js';
import { TypeScriptLanguageServer, type LspLocation } from './support/typescript-language-server.js';

const repo = 'targets';
const { home, env } = testHome();
let root: string;

const USE = [
  "import * as e from '../lib/errors.js';",
  "import * as b from '../lib/builders';",
  "import { version } from '../bin/tool.js';",
  '',
  'interface Visitors { check: (m: string) => void; node: typeof b.node }',
  '',
  'function check(message: string): void {',
  "  if (!message) e.fail('empty');",
  '}',
  '',
  'export const visitors = { check, version };',
  'export const typed: Visitors = { check, node: b.node };',
  '',
  'export function run(input: b.Node): string {',
  '  const { kind, name } = input;',
  "  if (!kind) e.fail('no kind');",
  '  return `${name}@${version}`;',
  '}',
  '',
  'export function label({ name }: b.Node): string {',
  '  return name;',
  '}',
];

const ITEM = [
  'export class Item {',
  '  /** @param {Item | null} parent */',
  '  constructor(parent) {',
  '    /** @type {Item | null} */',
  '    this.parent = parent;',
  '  }',
  '',
  '  detach() {',
  '    this.parent = null;',
  '  }',
  '',
  '  /** @param {Item} other */',
  '  adopt(other) {',
  '    this.parent = other.parent;',
  '  }',
  '}',
];

// Another class with a property of the same name: a name alone cannot tell which `parent` a use means.
// Its `size` is a field: an assignment in a method declares nothing more.
const TREE = [
  'export class Tree {',
  '  size = 0;',
  '',
  '  constructor() {',
  '    /** @type {Tree | null} */',
  '    this.parent = null;',
  '  }',
  '',
  '  grow() {',
  '    this.size = this.size + 1;',
  '  }',
  '}',
];

const WALK = [
  "import { Item } from './item.js';",
  '',
  '/** @param {Item} item */',
  'export function depth(item) {',
  '  let n = 0;',
  '  for (let at = item.parent; at; at = at.parent) n++;',
  '  return n;',
  '}',
  '',
  '/** @param {Item} item */',
  'export function root(item) {',
  '  return item.parent ? root(item.parent) : item;',
  '}',
];
// A union discriminated by `type`, declared in both quote styles.
const EXPR = [
  'type Expr =',
  "  | { type: 'plus'; expr: Expr }",
  '  | { type: "star"; expr: Expr }',
  "  | { type: 'name'; value: string };",
  '',
  'export function plus(expr: Expr): Expr {',
  "  return { type: 'plus', expr };",
  '}',
  '',
  'export function star(expr: Expr): Expr {',
  "  return { type: 'star', expr };",
  '}',
];

// A property each extending interface narrows (zod's issue types), used
// through the base, through one of them and through their union.
const ISSUES = [
  'export interface Issue {',
  '  readonly code: string;',
  '  format: string;',
  '}',
  'export interface RegexIssue extends Issue {',
  "  format: 'regex';",
  '  pattern: string;',
  '}',
  'export interface JwtIssue extends Issue {',
  "  format: 'jwt';",
  '}',
  'export type FormatIssue = RegexIssue | JwtIssue;',
  '',
  'export function describe(issue: FormatIssue, base: Issue, regex: RegexIssue): string {',
  "  if (issue.format === 'regex') return issue.pattern;",
  '  return base.format + regex.format;',
  '}',
];

// webpack's lib/javascript/syntax.js: the export is a getter, beside a variable of its name.
const SYNTAX = ['const parser = () => ({ grammar: 1 });', 'module.exports = {', '  get parser() {', '    return parser();', '  },', '};'];

const USE_SYNTAX = [
  "const grammar = require('./syntax').parser.grammar;",
  'function load() {',
  "  return require('./syntax').parser;",
  '}',
  'module.exports = { grammar, load };',
];

// webpack's lib/util/makeSerializable.js, and a module that calls it.
const SERIALIZABLE = [
  '"use strict";',
  '',
  'module.exports = (Constructor, request) => {',
  '  return `${request}:${Constructor.name}`;',
  '};',
];

const USE_SERIALIZABLE = [
  "const makeSerializable = require('./serializable');",
  'class Warning {}',
  "makeSerializable(Warning, 'webpack/lib/Warning');",
  'module.exports = Warning;',
];

// webpack's and luxon's doc comments: type literals that type object literals, and links.
const OPTIONS = [
  '/**',
  ' * @returns {{ assign: boolean, name: string }} the options',
  ' */',
  'export function options() {',
  "  return { assign: true, name: 'x' };",
  '}',
  '',
  '/** @typedef {{ kind: string }} Entry */',
  '',
  '/** @param {Entry[]} entries the list */',
  'export function add(entries) {',
  "  entries.push({ kind: 'shared' });",
  '}',
  '',
  '/** Made by {@link options}; see {@link add}. */',
  'export const DEFAULTS = options();',
];

// Another file's object literal typed by that typedef, and a typedef of `@property` tags.
const USE_OPTIONS = [
  "/** @type {import('./options.js').Entry} */",
  "export const shared = { kind: 'shared' };",
  '',
  '/**',
  ' * @typedef {Object} Range',
  ' * @property {number} start where it begins',
  ' */',
  '/** @type {Range} */',
  'export const range = { start: 0 };',
];

// Subclasses whose constructors assign a property their base has: TypeScript
// binds each as the subclass's own property, overriding the base's (postcss's
// nodes, whose base classes a declaration file gives). Assigned in a method
// only, it is the base's (Atom's `nodes`).
const NODE_DTS = ['export declare class Node {', '  type: string;', '  nodes: Node[] | undefined;', '}'];

const COMMENT = [
  "import { Node } from './node.js';",
  '',
  'export class Comment extends Node {',
  '  constructor() {',
  '    super();',
  "    this.type = 'comment';",
  '    if (!this.nodes) this.nodes = [];',
  '  }',
  '',
  '  get kind() {',
  '    return this.type;',
  '  }',
  '}',
  '',
  'export class Atom extends Node {',
  '  clear() {',
  '    this.nodes = [];',
  '  }',
  '}',
];

const RULE = [
  'export class Rule {',
  '  constructor() {',
  "    this.selector = '';",
  '  }',
  '}',
  '',
  'export class AtRule extends Rule {',
  '  /** @param {string} name */',
  '  constructor(name) {',
  '    super();',
  "    this.selector = '@' + name;",
  '  }',
  '',
  '  describe() {',
  '    return this.selector;',
  '  }',
  '}',
];

const USE_RULE = [
  "import { AtRule, Rule } from './rule.js';",
  '',
  '/** @param {AtRule} at @param {Rule} rule */',
  'export function selectors(at, rule) {',
  '  return [at.selector, rule.selector];',
  '}',
];

// Names written as string literals: a quoted member, read by element access,
// and a module specifier. The server's references span the literal's text.
const HEADERS = [
  "import * as rules from './issues';",
  '',
  "export interface Headers { 'content-type': string; accept: string }",
  '',
  'export function mime(h: Headers): string {',
  "  return h['content-type'] || h['accept'] || h.accept;",
  '}',
  '',
  "export type Accept = Headers['accept'];",
  'export const issues = rules;',
];

// A function a CommonJS module exports under its own name (nunjucks's
// filters): at the function, or at a read of the export, TypeScript answers
// that one alone; at a call through the export, both.
const FILTERS = [
  "'use strict';",
  '',
  'var _exports = module.exports = {};',
  '',
  'function replace(str, from, to) {',
  '  return str.split(from).join(to);',
  '}',
  '_exports.replace = replace;',
  'exports.swap = exports.replace;',
];

const USE_FILTERS = [
  "const filters = require('./filters');",
  '',
  "const dashed = filters.replace('a b', ' ', '-');",
  'const replacer = filters.replace;',
  'module.exports = { dashed, replacer };',
];

// Variables a CommonJS module exports by properties of their names (nunjucks's
// lexer): in the module, TypeScript answers the variable; through the module,
// the property, and the variable too where it is called.
const LEXER = [
  "'use strict';",
  '',
  "var TOKEN_INT = 'int';",
  "var tokenize = function (s) { return s.split(' '); };",
  '',
  'function token(type) { return { type: type }; }',
  'function next() { return token(TOKEN_INT); }',
  '',
  'module.exports = { TOKEN_INT: TOKEN_INT, tokenize: tokenize, next: next };',
];

const USE_LEXER = [
  "const lexer = require('./lexer');",
  "const parts = lexer.tokenize('a b');",
  'const kind = lexer.TOKEN_INT;',
  'module.exports = { parts, kind, split: lexer.tokenize };',
];

// A declaration file that exports one entity whole (`export = Shape`, a class
// and a namespace merged, as postcss's are), required by a JavaScript file.
const SHAPE_DTS = [
  'declare namespace Shape {',
  '  export interface ShapeProps { sides: number }',
  '}',
  'declare class Shape {',
  '  constructor(props?: Shape.ShapeProps)',
  '  sides: number',
  '}',
  'export = Shape',
];

const USE_SHAPE = ["let Shape = require('./shape');", 'const square = new Shape({ sides: 4 });', 'module.exports = { square, of: Shape };'];

/** A base's abstract property that subclasses implement by getters, one through another (ajv's code nodes' `names`). */
const NODES = [
  'export abstract class Node {',
  '  abstract readonly names: string[];',
  '}',
  '',
  'export class Leaf extends Node {',
  '  get names(): string[] {',
  "    return ['leaf'];",
  '  }',
  '}',
  '',
  'export class Pair extends Node {',
  '  constructor(',
  '    readonly left: Node,',
  '    readonly right: Node,',
  '  ) {',
  '    super();',
  '  }',
  '',
  '  get names(): string[] {',
  '    return [...this.left.names, ...this.right.names];',
  '  }',
  '}',
  '',
  'export class Named extends Pair {',
  '  get names(): string[] {',
  "    return ['named', ...super.names];",
  '  }',
  '}',
  '',
  'export class Fixed extends Node {',
  '  readonly names: string[] = [];',
  '}',
];

const USE_NODES = [
  "import type { Leaf, Node } from './nodes.js';",
  '',
  'export function all(node: Node, leaf: Leaf): string[] {',
  '  return [...node.names, ...leaf.names];',
  '}',
];

/** A class a CommonJS build exports by assignment, twice (socket.io's `dist/index.js`). */
const SERVER_CLASS = [
  '"use strict";',
  'Object.defineProperty(exports, "__esModule", { value: true });',
  'exports.Server = void 0;',
  'class Server {',
  '    constructor(opts) {',
  '        this.opts = opts;',
  '    }',
  '}',
  'exports.Server = Server;',
  'module.exports = (opts) => new Server(opts);',
  'module.exports.Server = Server;',
];

const USE_SERVER = ["const io = require('./server-class');", 'const S = io.Server;', 'module.exports = { S };'];

/** A getter and a setter of one name, static and not, in TypeScript and in JavaScript (luxon's `Settings`). */
const SETTINGS = [
  'let cutoff = 60;',
  'export class Settings {',
  '  static get cutoff(): number {',
  '    return cutoff;',
  '  }',
  '  static set cutoff(value: number) {',
  '    cutoff = value;',
  '  }',
  '  private w = 0;',
  '  get width(): number {',
  '    return this.w;',
  '  }',
  '  set width(value: number) {',
  '    this.w = value;',
  '  }',
  '}',
];

const USE_SETTINGS = [
  "import { Settings } from './settings.js';",
  '',
  'export function widen(settings: Settings): number {',
  '  Settings.cutoff = settings.width;',
  '  settings.width = Settings.cutoff;',
  '  return settings.width;',
  '}',
];

const SETTINGS_JS = SETTINGS.map((line) =>
  line
    .replace(/\): number/, ')')
    .replace(/: number\)/, ')')
    .replace('private w = 0;', 'w = 0;'),
);

const USE_SETTINGS_JS = [
  "import { Settings } from './settings.js';",
  '',
  'export const cutoff = Settings.cutoff;',
  'export const width = new Settings().width;',
];

/**
 * A union of an anonymous type literal and named types, given literals in
 * another file (mobx's `spyReport({ type: "scheduled-reaction", ... })`):
 * scip-typescript names the anonymous member by a local of the union's file.
 */
const EVENTS = [
  'type Event =',
  "  | { kind: 'start'; at: number }",
  '  | Done',
  '  | Failed;',
  "interface Done { kind: 'done'; result: string }",
  "interface Failed { kind: 'failed'; error: string }",
  'type Logged = Event & { logged?: true };',
  '',
  'export function report(event: Logged): string {',
  '  return event.kind;',
  '}',
];

const USE_EVENTS = [
  "import { report } from './events';",
  '',
  "report({ kind: 'start', at: 1 });",
  "report({ kind: 'done', result: 'x' });",
  // The literals given by constants (mobx's `{ type: ADD }` of `export const ADD = "add"`).
  "import { DONE, START } from './event-kinds';",
  "report({ kind: DONE, result: 'y' });",
  'report({ kind: START, at: 2 });',
];

// A union written in a function type's parameter, its anonymous member tagged: the literals given to the function
// from another file set the member their tags pick out, and `Done`'s only where they pick `Done`.
const TICKER = [
  "export interface Done { kind: 'done'; total: number }",
  "export type Tick = (event: { kind: 'tick'; n: number } | Done) => void;",
  "export interface Ticker { onTick: (event: { kind: 'tick'; n: number } | Done) => void }",
];

const DRIVE = [
  "import type { Tick, Ticker } from './ticker';",
  'export function drive(onTick: Tick, t: Ticker): void {',
  "  onTick({ kind: 'tick', n: 1 });",
  "  t.onTick({ kind: 'tick', n: 2 });",
  "  onTick({ kind: 'done', total: 3 });",
  '}',
];

// Functions that scip-typescript names nothing, an arrow function held by a variable, a function expression held by a
// class field and an object literal's method and arrow property, whose destructured parameter is typed by an object type
// written in place (msw's `executeHandlers`): the keys given to them in another file set that type's members.
const HANDLERS = [
  'export interface Handler { name: string }',
  'export const runHandlers = async ({ handlers, quiet }: { handlers: Handler[]; quiet?: boolean }) => handlers.length + (quiet ? 0 : 1);',
  'export class Runner {',
  '  run = function ({ limit }: { limit: number }): number {',
  '    return limit;',
  '  };',
  '}',
  'export const api = {',
  '  get({ id }: { id: string }) {',
  '    return id;',
  '  },',
  '  nested: { put: ({ key }: { key: string }) => key },',
  '};',
];

const USE_HANDLERS = [
  "import { api, runHandlers, Runner } from './handlers';",
  "const handlers = [{ name: 'a' }];",
  'void runHandlers({ handlers, quiet: true });',
  'new Runner().run({ limit: 2 });',
  "api.get({ id: 'x' });",
  "api.nested.put({ key: 'y' });",
];

// Literals whose contextual type is inferred from the literal itself: an argument for a type parameter (kysely's
// `freeze({ kind, column })`, also through an optional parameter: rxjs's `schedule(work, delay, { message })`) and a
// generic callback's result (`.map((n) => ({ ... }))`). Their keys declare their own properties, which the uses
// through the inferred types reach.
const INFERRED = [
  'export function freeze<T>(obj: T): Readonly<T> { return Object.freeze(obj); }',
  "export const node = freeze({ kind: 'Column', column: 'id' });",
  'export const rows = [1, 2].map((n) => ({ id: n, label: String(n) }));',
  'export function schedule<T>(work: (state?: T) => void, state?: T): void { work(state); }',
  'schedule((s) => s?.count, { count: 1 });',
];

const USE_INFERRED = ["import { node, rows } from './inferred';", 'export const first = rows[0]?.label;', 'export const kind = node.kind;'];

// kysely's published JavaScript: a literal given to `freeze`, which a declaration file beside its JavaScript types as
// generic, and a const whose declaration file types it by a factory. The keys of the literal a method returns are
// their own properties (above); the methods stay functions named after the const, called through it.
const FREEZE_DTS = ['export declare function freeze<T>(obj: T): Readonly<T>;'];
const COLUMN_NODE_DTS = [
  "export interface ColumnNode { readonly kind: 'ColumnNode'; readonly name: string }",
  'type ColumnNodeFactory = Readonly<{ create(name: string): Readonly<ColumnNode> }>;',
  'export declare const ColumnNode: ColumnNodeFactory;',
  'export {};',
];
const FREEZE_JS = ['export function freeze(obj) {', '  return Object.freeze(obj);', '}'];
const COLUMN_NODE = [
  '/// <reference types="./column-node.d.ts" />',
  "import { freeze } from './freeze.js';",
  'export const ColumnNode = freeze({',
  '  create(name) {',
  "    return freeze({ kind: 'ColumnNode', name });",
  '  },',
  '});',
];
const USE_COLUMN = [
  "import { ColumnNode } from './column-node.js';",
  'export function column(name) {',
  '  return ColumnNode.create(name).kind;',
  '}',
];

// Parse rules as prosemirror-model types them: a union told apart by `tag`, which the style rule declares `undefined`,
// and literals whose methods and arrow properties implement the rule's `getAttrs`.
const RULES = [
  'export interface TagRule { tag: string; getAttrs?: (node: string) => Record<string, string> | null }',
  'export interface StyleRule { style: string; tag?: undefined; getAttrs?: (value: string) => Record<string, string> | null }',
  'export type Rule = TagRule | StyleRule;',
  'export interface Spec { parseDOM?: readonly Rule[] }',
  'export interface TagSpec { parseDOM?: readonly TagRule[] }',
];

const USE_RULES = [
  "import type { Spec, TagSpec } from './rules';",
  'export const link = {',
  '  parseDOM: [',
  "    { tag: 'a', getAttrs(node: string) { return { href: node }; } },",
  "    { style: 'x', getAttrs: (value: string) => ({ v: value }) },",
  '  ],',
  '} as Spec;',
  "export const image = { parseDOM: [{ tag: 'img', getAttrs(node: string) { return { src: node }; } }] } as TagSpec;",
];

// Events of one shape but for their tags, each declaring the same property (query-core's mutation events), and
// literals giving the property beside a tag.
const CHANGES = [
  "interface Added { type: 'added'; item: string }",
  "interface Removed { type: 'removed'; item: string }",
  "interface Renamed { type: 'renamed'; item: string; from: string }",
  'type Change = Added | Removed | Renamed;',
  '',
  'export function notify(change: Change): void {',
  '  console.log(change.item);',
  '}',
  '',
  "notify({ item: 'a', type: 'removed' });",
  'notify({',
  "  type: 'renamed',",
  "  item: ['b'].join(''),",
  "  from: 'a',",
  '});',
];

const EVENT_KINDS = ["export const DONE = 'done';", "export const START: 'start' = 'start';"];

// A union of type aliases' object types (router-core's managed tags): a literal's tag picks out the member, for a
// property written in full and for a shorthand, which also names the value it uses.
const TAGS = [
  "type TitleTag = { tag: 'title'; children: string };",
  "type ScriptTag = { tag: 'script'; children?: string; nonce?: string };",
  "type StyleTag = { tag: 'style'; children?: string };",
  'export type Tag = TitleTag | ScriptTag | StyleTag;',
  '',
  'export function scripts(sources: string[]): Tag[] {',
  '  const tags: Tag[] = [];',
  '  for (const children of sources) {',
  "    tags.push({ tag: 'script', children: children.trim() });",
  "    tags.push({ tag: 'style', children });",
  '  }',
  '  return tags;',
  '}',
];

// Literals typed by a union with a member that lacks the property: an optional tuple element (`{...} | undefined`,
// tRPC's query keys) and a union of an object type and a primitive (virtual-core's measurements).
const KEYS = [
  "export type QueryKey = [readonly string[], { input?: unknown; type?: 'query' | 'infinite' }?];",
  '',
  'export function keyOf(path: string[], input: unknown): QueryKey {',
  "  return [path, { input, type: 'infinite' }];",
  '}',
  '',
  'export type Measured = { index: number; size: number } | number;',
  '',
  'export function measure(items: Measured[], i: number): void {',
  '  items[i] = { index: i, size: 1 };',
  '}',
];

// Components used as JSX tags, by name and through a member (`<slots.Wrap>`), opened and closed.
const PANEL = ['export function Panel(props: { title: string }): unknown {', '  return props.title;', '}'];
const APP = [
  "import { Panel } from './panel';",
  '',
  'export function App({ slots }: { slots: { Wrap: (props: { children: unknown }) => unknown } }): unknown {',
  '  const panel = <Panel title="a" />;',
  '  return <slots.Wrap><Panel title="b"></Panel>{panel}</slots.Wrap>;',
  '}',
];

// Class fields initialised with functions (TanStack Form's methods): at a call, TypeScript answers the function.
const FIELDS_TS = [
  'export class FieldApi {',
  "  name = 'field';",
  '  getName = <T extends string>(field: T): string => {',
  '    return field + this.name;',
  '  };',
  '  private readonly check = async (value: string) => value.length > 0;',
  '  plain = function named(n: number): number {',
  '    return n;',
  '  };',
  '  run(): string {',
  '    const read = this.getName;',
  "    void this.check('x');",
  "    return this.getName('a') + this.plain(1) + read('b');",
  '  }',
  '}',
  'export function use(api: FieldApi): string {',
  "  return api.getName('b');",
  '}',
];

const WIDGET_JS = [
  'export class Widget {',
  '  static create = (n) => new Widget(n);',
  '  handle = async (event) => {',
  '    return event;',
  '  };',
  '  constructor(n) {',
  '    this.n = n;',
  '    this.onClick = () => this.handle(1);',
  '  }',
  '  fire() {',
  '    this.onClick();',
  '    return Widget.create(2);',
  '  }',
  '}',
];

const FILES: Record<string, string> = {
  'tsconfig.json':
    JSON.stringify({
      compilerOptions: {
        strict: true,
        allowJs: true,
        module: 'esnext',
        moduleResolution: 'bundler',
        target: 'es2022',
        noEmit: true,
        jsx: 'preserve',
      },
    }) + '\n',
  'lib/errors.js':
    '/* This file is generated by scripts/messages.js. Do not edit! */\n\n/**\n * @param {string} message\n */\nexport function fail(message) {\n\tthrow new Error(message);\n}\n',
  'lib/builders.ts':
    '// Builders of nodes.\n/*\n * Each returns a fresh object.\n */\n\nexport interface Node { kind: string; name: string }\n\nexport function node(kind: string, name: string): Node {\n  return { kind, name };\n}\n',
  'bin/tool.js': "#!/usr/bin/env node\n// The command line.\nexport const version = '1.0.0';\n",
  'src/use.ts': USE.join('\n') + '\n',
  'lib/item.js': ITEM.join('\n') + '\n',
  'lib/walk.js': WALK.join('\n') + '\n',
  'lib/tree.js': TREE.join('\n') + '\n',
  'src/expr.ts': EXPR.join('\n') + '\n',
  'src/issues.ts': ISSUES.join('\n') + '\n',
  'lib/syntax.js': SYNTAX.join('\n') + '\n',
  'lib/use-syntax.js': USE_SYNTAX.join('\n') + '\n',
  'lib/serializable.js': SERIALIZABLE.join('\n') + '\n',
  'lib/use-serializable.js': USE_SERIALIZABLE.join('\n') + '\n',
  'lib/options.js': OPTIONS.join('\n') + '\n',
  'lib/use-options.js': USE_OPTIONS.join('\n') + '\n',
  'lib/node.d.ts': NODE_DTS.join('\n') + '\n',
  'lib/comment.js': COMMENT.join('\n') + '\n',
  'lib/rule.js': RULE.join('\n') + '\n',
  'lib/use-rule.js': USE_RULE.join('\n') + '\n',
  'src/headers.ts': HEADERS.join('\n') + '\n',
  'lib/filters.js': FILTERS.join('\n') + '\n',
  'lib/use-filters.js': USE_FILTERS.join('\n') + '\n',
  'lib/lexer.js': LEXER.join('\n') + '\n',
  'lib/use-lexer.js': USE_LEXER.join('\n') + '\n',
  'lib/shape.d.ts': SHAPE_DTS.join('\n') + '\n',
  'lib/use-shape.js': USE_SHAPE.join('\n') + '\n',
  'src/nodes.ts': NODES.join('\n') + '\n',
  'src/use-nodes.ts': USE_NODES.join('\n') + '\n',
  'lib/server-class.js': SERVER_CLASS.join('\n') + '\n',
  'lib/use-server.js': USE_SERVER.join('\n') + '\n',
  'src/settings.ts': SETTINGS.join('\n') + '\n',
  'src/use-settings.ts': USE_SETTINGS.join('\n') + '\n',
  'lib/settings.js': SETTINGS_JS.join('\n') + '\n',
  'lib/use-settings.js': USE_SETTINGS_JS.join('\n') + '\n',
  'src/events.ts': EVENTS.join('\n') + '\n',
  'src/use-events.ts': USE_EVENTS.join('\n') + '\n',
  'src/event-kinds.ts': EVENT_KINDS.join('\n') + '\n',
  'src/ticker.ts': TICKER.join('\n') + '\n',
  'src/drive.ts': DRIVE.join('\n') + '\n',
  'src/handlers.ts': HANDLERS.join('\n') + '\n',
  'src/use-handlers.ts': USE_HANDLERS.join('\n') + '\n',
  'src/inferred.ts': INFERRED.join('\n') + '\n',
  'src/use-inferred.ts': USE_INFERRED.join('\n') + '\n',
  'lib/freeze.d.ts': FREEZE_DTS.join('\n') + '\n',
  'lib/freeze.js': FREEZE_JS.join('\n') + '\n',
  'lib/column-node.js': COLUMN_NODE.join('\n') + '\n',
  'lib/column-node.d.ts': COLUMN_NODE_DTS.join('\n') + '\n',
  'lib/use-column.js': USE_COLUMN.join('\n') + '\n',
  'src/rules.ts': RULES.join('\n') + '\n',
  'src/use-rules.ts': USE_RULES.join('\n') + '\n',
  'src/changes.ts': CHANGES.join('\n') + '\n',
  'src/fields.ts': FIELDS_TS.join('\n') + '\n',
  'lib/widget.js': WIDGET_JS.join('\n') + '\n',
  'src/tags.ts': TAGS.join('\n') + '\n',
  'src/keys.ts': KEYS.join('\n') + '\n',
  'src/panel.tsx': PANEL.join('\n') + '\n',
  'src/app.tsx': APP.join('\n') + '\n',
};

const TEXTS: Record<string, string[]> = {
  'src/use.ts': USE,
  'lib/item.js': ITEM,
  'lib/walk.js': WALK,
  'lib/tree.js': TREE,
  'src/expr.ts': EXPR,
  'src/issues.ts': ISSUES,
  'lib/syntax.js': SYNTAX,
  'lib/use-syntax.js': USE_SYNTAX,
  'lib/serializable.js': SERIALIZABLE,
  'lib/use-serializable.js': USE_SERIALIZABLE,
  'lib/options.js': OPTIONS,
  'lib/use-options.js': USE_OPTIONS,
  'lib/node.d.ts': NODE_DTS,
  'lib/comment.js': COMMENT,
  'lib/rule.js': RULE,
  'lib/use-rule.js': USE_RULE,
  'src/headers.ts': HEADERS,
  'lib/filters.js': FILTERS,
  'lib/use-filters.js': USE_FILTERS,
  'lib/lexer.js': LEXER,
  'lib/use-lexer.js': USE_LEXER,
  'lib/shape.d.ts': SHAPE_DTS,
  'lib/use-shape.js': USE_SHAPE,
  'src/nodes.ts': NODES,
  'src/use-nodes.ts': USE_NODES,
  'lib/server-class.js': SERVER_CLASS,
  'lib/use-server.js': USE_SERVER,
  'src/settings.ts': SETTINGS,
  'src/use-settings.ts': USE_SETTINGS,
  'lib/settings.js': SETTINGS_JS,
  'lib/use-settings.js': USE_SETTINGS_JS,
  'src/events.ts': EVENTS,
  'src/use-events.ts': USE_EVENTS,
  'src/event-kinds.ts': EVENT_KINDS,
  'src/ticker.ts': TICKER,
  'src/drive.ts': DRIVE,
  'src/handlers.ts': HANDLERS,
  'src/use-handlers.ts': USE_HANDLERS,
  'src/inferred.ts': INFERRED,
  'src/use-inferred.ts': USE_INFERRED,
  'lib/freeze.d.ts': FREEZE_DTS,
  'lib/freeze.js': FREEZE_JS,
  'lib/column-node.js': COLUMN_NODE,
  'lib/column-node.d.ts': COLUMN_NODE_DTS,
  'lib/use-column.js': USE_COLUMN,
  'src/rules.ts': RULES,
  'src/use-rules.ts': USE_RULES,
  'src/changes.ts': CHANGES,
  'src/fields.ts': FIELDS_TS,
  'lib/widget.js': WIDGET_JS,
  'src/tags.ts': TAGS,
  'src/keys.ts': KEYS,
  'src/panel.tsx': PANEL,
  'src/app.tsx': APP,
};

/** The 1-based position of the `nth` (from 1) `needle` on 1-based `line` of `path`. */
function position(path: string, line: number, needle: string, nth = 1): [string, number, number] {
  let column = -1;
  for (let i = 0; i < nth; i++) column = TEXTS[path]![line - 1]!.indexOf(needle, column + 1);
  assert.ok(column >= 0, `${needle} on line ${line} of ${path}`);
  return [path, line, column + 1];
}

/** Calls of class fields initialised with functions: TypeScript answers the function, named or whole. */
const CALLED_FIELDS: [string, [string, number, number]][] = [
  ['a call of a class field initialised with a generic arrow function', position('src/fields.ts', 13, 'getName')],
  ['the same, called in another function', position('src/fields.ts', 17, 'getName')],
  ['a private readonly field initialised with an async arrow function, called', position('src/fields.ts', 12, 'check')],
  ['a field initialised with a named function expression, called', position('src/fields.ts', 13, 'plain')],
  ['a static field initialised with an arrow function, called (JavaScript)', position('lib/widget.js', 12, 'create')],
  ['a field initialised with an async arrow function, called (JavaScript)', position('lib/widget.js', 8, 'handle')],
];

const POSITIONS: [string, [string, number, number]][] = [
  ['a namespace import', position('src/use.ts', 1, 'e ')],
  ['a use of it', position('src/use.ts', 8, 'e.')],
  ['a namespace import of a module after line and block comments', position('src/use.ts', 2, 'b ')],
  ["a namespace import's specifier", position('src/use.ts', 1, "'")],
  ["a specifier of a module with a '#!' line", position('src/use.ts', 3, "'")],
  ['a name imported from that module', position('src/use.ts', 3, 'version')],
  ['a shorthand property', position('src/use.ts', 11, 'check')],
  ['a shorthand property of a typed literal', position('src/use.ts', 12, 'check')],
  ['a destructured name', position('src/use.ts', 15, 'kind')],
  ['a destructured parameter', position('src/use.ts', 20, 'name')],
  ["a JavaScript class's property, at its assignment in the constructor", position('lib/item.js', 5, 'parent')],
  ['at its assignment in a method', position('lib/item.js', 9, 'parent')],
  ['at a read in a method', position('lib/item.js', 14, 'parent', 2)],
  ['at a use in another file', position('lib/walk.js', 6, 'parent')],
  ["a JavaScript class's field, at an assignment in a method", position('lib/tree.js', 10, 'size')],
  ['at a read', position('lib/tree.js', 10, 'size', 2)],
  ["a union's discriminant, given a literal", position('src/expr.ts', 7, 'type')],
  ['given one in the other quotes', position('src/expr.ts', 11, 'type')],
  ['a getter of `module.exports = {...}`, read through require()', position('lib/use-syntax.js', 1, 'parser')],
  ['read in a function', position('lib/use-syntax.js', 3, 'parser')],
  ["the module's variable of that name, called in the getter", position('lib/syntax.js', 4, 'parser')],
  ['a call of the function a module assigns whole', position('lib/use-serializable.js', 3, 'makeSerializable')],
  ['the name an importer binds it to', position('lib/use-serializable.js', 1, 'makeSerializable')],
  ["an object literal's property typed by a doc comment's `@returns` type", position('lib/options.js', 5, 'assign')],
  ["one typed by a doc comment's `@typedef`", position('lib/options.js', 12, 'kind')],
  ["the property in the doc comment's type", position('lib/options.js', 2, 'assign')],
  ['a name in a `{@link}`', position('lib/options.js', 15, 'options')],
  ["another file's object literal typed by the `@typedef`", position('lib/use-options.js', 2, 'kind')],
  ['the `@typedef` named in another file', position('lib/use-options.js', 1, 'Entry')],
  ['a property of a `@typedef` of `@property` tags', position('lib/use-options.js', 9, 'start')],
  ["a subclass's constructor assigning a property a declaration file gives its base", position('lib/comment.js', 6, 'type')],
  ['a read of it in the subclass', position('lib/comment.js', 11, 'type')],
  ["the same, of a JavaScript base's property, at the subclass's assignment", position('lib/rule.js', 11, 'selector')],
  ['a read in the subclass', position('lib/rule.js', 15, 'selector')],
  ["a use through the subclass's type in another file", position('lib/use-rule.js', 5, 'selector')],
  ["a use through the base's type", position('lib/use-rule.js', 5, 'selector', 2)],
  ['a function a CommonJS module exports under its name, at its declaration', position('lib/filters.js', 5, 'replace')],
  ['at its use in the export', position('lib/filters.js', 8, 'replace', 2)],
  ['a read of the export in its module', position('lib/filters.js', 9, 'replace')],
  ['a call through the export in an importer', position('lib/use-filters.js', 3, 'replace')],
  ['a read of it there', position('lib/use-filters.js', 4, 'replace')],
  ['a variable a CommonJS module exports by a property of its name, used in the module', position('lib/lexer.js', 7, 'TOKEN_INT')],
  ["as the property's value", position('lib/lexer.js', 9, 'TOKEN_INT', 2)],
  ['read through the module in an importer', position('lib/use-lexer.js', 3, 'TOKEN_INT')],
  ['one holding a function, called through the module', position('lib/use-lexer.js', 2, 'tokenize')],
  ['read through the module', position('lib/use-lexer.js', 4, 'tokenize')],
  ['a name bound by `require()` to a module that exports a class and a namespace by `export =`', position('lib/use-shape.js', 1, 'Shape')],
  ['a read of it', position('lib/use-shape.js', 3, 'Shape')],
  ['a JavaScript class exported by assignment, at the value assigned', position('lib/server-class.js', 9, 'Server', 2)],
  ['at the export assigned', position('lib/server-class.js', 9, 'Server')],
  ['at a second export, of `module.exports`', position('lib/server-class.js', 11, 'Server', 2)],
  ['at its class declaration', position('lib/server-class.js', 4, 'Server')],
  ['read through the module in an importer', position('lib/use-server.js', 2, 'Server')],
  ['`exports` in a module that assigns its exports whole, passed as a value', position('lib/server-class.js', 2, 'exports')],
  ['`exports` there, assigned to', position('lib/server-class.js', 3, 'exports')],
  ...(['src/settings.ts', 'lib/settings.js'] as const).flatMap((path): [string, Position][] => [
    [`a static getter with a setter, at the getter (${path})`, position(path, 3, 'cutoff')],
    [`at the setter (${path})`, position(path, 6, 'cutoff')],
    [`a getter with a setter, at the getter (${path})`, position(path, 10, 'width')],
    [`at the setter (${path})`, position(path, 13, 'width')],
  ]),
  ['the static pair, assigned in another file', position('src/use-settings.ts', 4, 'cutoff')],
  ['the pair, read in another file', position('src/use-settings.ts', 4, 'width')],
  ['the pair, assigned', position('src/use-settings.ts', 5, 'width')],
  ['the static pair, read in another JavaScript file', position('lib/use-settings.js', 3, 'cutoff')],
  ['the pair, read there', position('lib/use-settings.js', 4, 'width')],
  ["a union's discriminant in another file, picking out a named member", position('src/use-events.ts', 4, 'kind')],
  ['given by a constant', position('src/use-events.ts', 6, 'kind')],
  ["a property of a union's named members, given beside a literal tag", position('src/changes.ts', 10, 'item')],
  ['the tag given first, each on a line of its own', position('src/changes.ts', 13, 'item')],
  ["a property of a union of type aliases' object types, given beside a literal tag", position('src/tags.ts', 9, 'children')],
  ['a shorthand property there', position('src/tags.ts', 10, 'children')],
  ["a literal's property typed by an optional tuple element", position('src/keys.ts', 4, 'type')],
  ['a shorthand property there', position('src/keys.ts', 4, 'input')],
  ["a literal's property typed by a union of an object type and a primitive", position('src/keys.ts', 10, 'index')],
  ...CALLED_FIELDS,
  ['a class field initialised with an arrow function, read and not called', position('src/fields.ts', 11, 'getName')],
  ['a function assigned to a property of `this`, called', position('lib/widget.js', 11, 'onClick')],
];

const at = (l: { path: string; line: number; column: number }) => `${l.path}:${l.line}:${l.column}`;
const lspAt = (l: LspLocation) => `${l.path}:${l.line + 1}:${l.character + 1}`;

type Position = [path: string, line: number, column: number];

/**
 * At each position, the server's references (held to `serverLists` first, so
 * that the comparison is about what the test says), then sextant's: the same
 * places, each written by `ours` and `theirs` (starts, unless told otherwise).
 */
async function referencesAreTheServers(
  positions: readonly Position[],
  serverLists: (expected: string[], where: string) => void,
  written: { ours: (l: any) => string; theirs: (l: LspLocation) => string } = { ours: at, theirs: lspAt },
): Promise<void> {
  for (const [path, line, column] of positions) {
    const where = `${path}:${line}:${column}`;
    const expected = (await server.references(path, line - 1, column - 1, true)).map(written.theirs).sort();
    serverLists(expected, where);
    const refs = await session.ok('findReferences', { repo, path, line, column });
    assert.deepEqual(refs.references.map(written.ours).sort(), expected, `references at ${where}`);
  }
}

/** At each position, the server's definitions (held to `serverAnswers` first), then sextant's: the same places. */
async function definitionsAreTheServers(
  positions: readonly Position[],
  serverAnswers: (expected: string[], where: string) => void,
): Promise<void> {
  for (const [path, line, column] of positions) {
    const where = `${path}:${line}:${column}`;
    const expected = (await server.definition(path, line - 1, column - 1)).map(lspAt).sort();
    serverAnswers(expected, where);
    const def = await session.ok('goToDefinition', { repo, path, line, column });
    assert.deepEqual(def.definitions.map(at).sort(), expected, `definitions at ${where}`);
  }
}

/**
 * The server stops at an import's binding (`e` of `e.fail` is `import * as e`);
 * sextant goes on to what it imports, as the server does when asked there.
 */
async function followImports(server: TypeScriptLanguageServer, locations: LspLocation[]): Promise<LspLocation[]> {
  const followed: LspLocation[] = [];
  for (const l of locations) {
    const binding = TEXTS[l.path]?.[l.line]?.startsWith('import ') === true;
    followed.push(...(binding ? await server.definition(l.path, l.line, l.character) : [l]));
  }
  return followed;
}

let server: TypeScriptLanguageServer;
let session: McpSession;

before(async () => {
  root = gitRepoOf(repo, FILES);
  indexOrThrow(root, env);
  session = await mcpSession(env);
  server = await TypeScriptLanguageServer.start(root);
  // Every file open: the server's references search the files it has loaded.
  for (const path of Object.keys(TEXTS)) await server.open(path);
});

after(async () => {
  await server?.stop();
  await session?.close();
  for (const dir of [dirname(root), home]) removeDir(dir);
});

describe('where goToDefinition lands, and what findReferences lists there', () => {
  test('goToDefinition answers as typescript-language-server does', async () => {
    for (const [what, [path, line, column]] of POSITIONS) {
      const where = `${path}:${line}:${column}`;
      const expected = (await followImports(server, await server.definition(path, line - 1, column - 1))).map(lspAt).sort();
      assert.ok(expected.length > 0, `the server answers at ${what} (${where})`);
      const def = await session.ok('goToDefinition', { repo, path, line, column });
      assert.deepEqual(def.definitions.map(at).sort(), expected, `definitions at ${what} (${where})`);
    }
  });

  test("a call of a class field initialised with a function: the function's whole span, or its name, as the server's", async () => {
    const span = (l: { line: number; column: number; end_line: number; end_column: number }) =>
      `${l.line}:${l.column}-${l.end_line}:${l.end_column}`;
    for (const [what, [path, line, column]] of CALLED_FIELDS) {
      const expected = (await server.definition(path, line - 1, column - 1)).map((l) =>
        span({ line: l.line + 1, column: l.character + 1, end_line: l.endLine + 1, end_column: l.endCharacter + 1 }),
      );
      const def = await session.ok('goToDefinition', { repo, path, line, column });
      assert.deepEqual(def.definitions.map(span), expected, `definitions at ${what} (${path}:${line}:${column})`);
    }
  });

  test("a property of literals typed by unions some members of which lack it: its references are the server's, the literals' keys among them", async () => {
    await referencesAreTheServers(
      [position('src/keys.ts', 1, 'type', 2), position('src/keys.ts', 1, 'input'), position('src/keys.ts', 7, 'index')],
      (expected, where) =>
        assert.ok(
          expected.some((l) => /^src\/keys\.ts:(4|10):/.test(l)),
          `the server lists a literal's key at ${where}`,
        ),
    );
  });

  test("a component and a member used as JSX tags: their references are the server's, every opening and closing tag among them", async () => {
    await referencesAreTheServers(
      [position('src/panel.tsx', 1, 'Panel'), position('src/app.tsx', 3, 'Wrap'), position('src/app.tsx', 3, 'slots')],
      (expected, where) =>
        assert.ok(expected.filter((l) => l.startsWith('src/app.tsx:5:')).length >= 2, `the server lists tags on line 5 at ${where}`),
    );
  });

  test("a JavaScript class's property, used in another file: its references are the server's, each once", async () => {
    await referencesAreTheServers([position('lib/item.js', 9, 'parent'), position('lib/walk.js', 12, 'parent', 2)], () => {});
  });

  test("a getter of `module.exports = {...}`: its references are the server's, not its namesake variable's", async () => {
    await referencesAreTheServers([position('lib/syntax.js', 3, 'parser'), position('lib/use-syntax.js', 3, 'parser')], (expected, where) =>
      assert.equal(expected.length, 3, `the server lists the getter and its two reads at ${where}`),
    );
  });

  test("doc comments: references of a function linked from one, and of a property declared in one, are the server's", async () => {
    const positions = [
      position('lib/options.js', 4, 'options'),
      position('lib/options.js', 11, 'add'),
      position('lib/options.js', 5, 'assign'),
      position('lib/options.js', 8, 'kind'),
      position('lib/options.js', 8, 'Entry'),
      position('lib/use-options.js', 6, 'start'),
    ];
    await referencesAreTheServers(positions, (expected, where) =>
      assert.ok(expected.length >= 2, `the server lists the declaration and a use at ${where}`),
    );
  });

  test("a property a subclass's constructor assigns again, overriding its base's: its references are the server's, from either class", async () => {
    const positions = [
      position('lib/comment.js', 6, 'type'),
      position('lib/comment.js', 11, 'type'),
      position('lib/node.d.ts', 2, 'type'),
      position('lib/comment.js', 7, 'nodes', 2),
      position('lib/comment.js', 17, 'nodes'),
      position('lib/rule.js', 3, 'selector'),
      position('lib/rule.js', 11, 'selector'),
      position('lib/use-rule.js', 5, 'selector'),
    ];
    await referencesAreTheServers(positions, (expected, where) =>
      assert.ok(new Set(expected.map((l) => l.split(':')[0])).size >= 2, `the server lists the base's and the subclass's at ${where}`),
    );
  });

  test("a property subclasses implement by getters: its references are the server's, every override's, from any of them", async () => {
    const positions = [
      position('src/nodes.ts', 2, 'names'),
      position('src/nodes.ts', 6, 'names'),
      position('src/nodes.ts', 19, 'names'),
      position('src/nodes.ts', 25, 'names'),
      position('src/nodes.ts', 31, 'names'),
      position('src/use-nodes.ts', 4, 'names', 2),
    ];
    await referencesAreTheServers(positions, (expected, where) =>
      assert.ok(
        [6, 19, 25].every((line) => expected.includes(`src/nodes.ts:${line}:${position('src/nodes.ts', line, 'names')[2]}`)),
        `the server lists every getter at ${where}`,
      ),
    );
  });

  test("a getter's callers are those of every override, as the server's call hierarchy lists them", async () => {
    const [path, line, column] = position('src/nodes.ts', 6, 'names');
    const [item] = await server.prepareCallHierarchy(path, line - 1, column - 1);
    const expected = (await server.incomingCalls(item!)).map((c) => `${c.from.name}@${c.from.selectionRange.start.line + 1}`).sort();
    assert.deepEqual(expected, ['all@3', 'names@19', 'names@25'], 'the server: the function reading it and the getters reading others');
    const r = await session.ok('callHierarchy', { repo, path, line, column, direction: 'incoming' });
    assert.deepEqual(r.calls.map((c: any) => `${c.from.name}@${c.from.line}`).sort(), expected);
  });

  test("references at a name written as a string literal span the literal's text, as the server's", async () => {
    const span = (l: { path: string; line: number; column: number; end_line: number; end_column: number }) =>
      `${l.path}:${l.line}:${l.column}-${l.end_line}:${l.end_column}`;
    const lspSpan = (l: LspLocation) => `${l.path}:${l.line + 1}:${l.character + 1}-${l.endLine + 1}:${l.endCharacter + 1}`;
    const positions = [
      position('src/headers.ts', 3, 'content-type'),
      position('src/headers.ts', 6, 'content-type'),
      position('src/headers.ts', 6, 'accept'),
      position('src/headers.ts', 9, 'accept'),
    ];
    await referencesAreTheServers(
      positions,
      (expected, where) => assert.ok(expected.length >= 2, `the server lists the member and a use at ${where}`),
      { ours: span, theirs: lspSpan },
    );
    // A module specifier: the server's reference of the module there spans the specifier's text too.
    const [path, line, quote] = position('src/headers.ts', 1, "'");
    const column = quote + 1;
    const specifier = (await server.references(path, line - 1, column - 1, true)).map(lspSpan).filter((l) => l.startsWith(path));
    assert.deepEqual(specifier, [`${path}:1:${column}-1:${column + './issues'.length}`]);
    const refs = await session.ok('findReferences', { repo, path, line, column });
    assert.ok(refs.references.map(span).includes(specifier[0]), JSON.stringify(refs.references.map(span)));
  });

  test("a getter and its setter, static or not: their references are the server's, both declarations, from either", async () => {
    const positions = (['src/settings.ts', 'lib/settings.js'] as const).flatMap((path) => [
      position(path, 3, 'cutoff'),
      position(path, 6, 'cutoff'),
      position(path, 10, 'width'),
      position(path, 13, 'width'),
    ]);
    await referencesAreTheServers([...positions, position('src/use-settings.ts', 5, 'width')], (expected, where) =>
      assert.equal(
        expected.filter((l) => /\/settings\.[jt]s:(3|6|10|13):/.test(l)).length,
        2,
        `the server lists the getter and the setter at ${where}`,
      ),
    );
  });

  test("a literal picking out a union's anonymous member from another file, written or a constant's: the server's member", async () => {
    // The anonymous member is named under the union's alias (orchestrator/composed-types-patch.ts): the literal sets its `kind`.
    for (const [path, line, column] of [position('src/use-events.ts', 3, 'kind'), position('src/use-events.ts', 7, 'kind')]) {
      const where = `${path}:${line}:${column}`;
      const expected = (await server.definition(path, line - 1, column - 1)).map(lspAt);
      assert.deepEqual(expected, [`src/events.ts:2:7`], `the server: the anonymous member, at ${where}`);
      const def = await session.ok('goToDefinition', { repo, path, line, column });
      assert.deepEqual(def.definitions.map(at), expected, `sextant, at ${where}`);
    }
  });

  test("a literal given to a function type whose parameter is a tagged union: the member its tags pick out, as the server's", async () => {
    const positions = [
      position('src/drive.ts', 3, 'kind'),
      position('src/drive.ts', 3, 'n:'),
      position('src/drive.ts', 4, 'kind'),
      position('src/drive.ts', 4, 'n:'),
      position('src/drive.ts', 5, 'kind'),
      position('src/drive.ts', 5, 'total'),
    ];
    for (const [path, line, column] of positions) {
      const where = `${path}:${line}:${column}`;
      const expected = (await server.definition(path, line - 1, column - 1)).map(lspAt);
      // The anonymous member where the tag is 'tick' (Tick's on line 2, Ticker's on line 3), Done's where it is 'done'.
      assert.deepEqual(
        expected.map((l) => l.split(':')[1]),
        [line === 5 ? '1' : String(line - 1)],
        `the server, at ${where}`,
      );
      const def = await session.ok('goToDefinition', { repo, path, line, column });
      assert.deepEqual(def.definitions.map(at), expected, `sextant, at ${where}`);
    }
    // The server's findReferences narrows by the tags too, or not, by its checker's state (README): sextant keeps the
    // union's answer, every member's, which holds the server's and adds only places of the same name.
    for (const [path, line, column] of positions) {
      const where = `${path}:${line}:${column}`;
      const expected = (await server.references(path, line - 1, column - 1, true)).map(lspAt);
      const refs: string[] = (await session.ok('findReferences', { repo, path, line, column })).references.map(at);
      assert.deepEqual(
        expected.filter((l) => !refs.includes(l)),
        [],
        `sextant lists the server's references at ${where}`,
      );
      const name = TEXTS[path]![line - 1]!.slice(column - 1).match(/^\w+/)![0];
      for (const l of refs.filter((l) => !expected.includes(l))) {
        const [file, row, col] = l.split(':');
        assert.ok(TEXTS[file!]![Number(row) - 1]!.startsWith(name, Number(col) - 1), `${l}, beyond the server's, names ${name}`);
      }
    }
  });

  test("keys given to the destructured parameter of an arrow function, a function expression or a literal's method, its type written in place: its members, as the server's", async () => {
    const positions = [
      position('src/use-handlers.ts', 3, 'handlers'),
      position('src/use-handlers.ts', 3, 'quiet'),
      position('src/use-handlers.ts', 4, 'limit'),
      position('src/handlers.ts', 2, 'handlers'),
      position('src/handlers.ts', 2, 'quiet?'),
      position('src/handlers.ts', 4, 'limit'),
      position('src/use-handlers.ts', 5, 'id'),
      position('src/use-handlers.ts', 6, 'key'),
      position('src/handlers.ts', 9, 'id'),
      position('src/handlers.ts', 12, 'key', 2),
    ];
    // The member of the object type written in handlers.ts (beside the variable a shorthand key also names).
    await definitionsAreTheServers(positions, (expected, where) =>
      assert.ok(
        expected.some((l) => l.startsWith('src/handlers.ts:')),
        `the server answers ${where} in handlers.ts: ${expected}`,
      ),
    );
    await referencesAreTheServers(positions, (expected, where) =>
      assert.ok(new Set(expected.map((l) => l.split(':')[0])).size >= 2, `the server lists both files at ${where}`),
    );
  });

  test("an object literal's method or arrow property: the contextual type's member it implements, as the server's, beside itself", async () => {
    const positions = [
      position('src/use-rules.ts', 4, 'getAttrs'),
      position('src/use-rules.ts', 5, 'getAttrs'),
      position('src/use-rules.ts', 8, 'getAttrs'),
    ];
    for (const [path, line, column] of positions) {
      const where = `${path}:${line}:${column}`;
      const expected = (await server.definition(path, line - 1, column - 1)).map(lspAt);
      // TagRule's getAttrs where the literal's tag is a string (StyleRule declares `tag?: undefined`); both where no tag
      // tells them apart.
      const tagRule = `src/rules.ts:1:${RULES[0]!.indexOf('getAttrs') + 1}`;
      const styleRule = `src/rules.ts:2:${RULES[1]!.indexOf('getAttrs') + 1}`;
      assert.deepEqual(expected, line === 5 ? [tagRule, styleRule] : [tagRule], `the server, at ${where}`);
      const def = await session.ok('goToDefinition', { repo, path, line, column });
      const answered: string[] = def.definitions.map(at);
      assert.deepEqual(
        answered.filter((l) => l !== where),
        expected,
        `sextant, at ${where}: the server's answer, and at most the literal's member itself`,
      );
    }
  });

  test("keys of a literal whose contextual type is inferred from it (a type parameter's argument, optional or not, a generic callback's result): each its own definition, and references as the server's", async () => {
    const positions = [
      position('src/inferred.ts', 2, 'kind'),
      position('src/inferred.ts', 2, 'column'),
      position('src/inferred.ts', 3, 'label'),
      position('src/use-inferred.ts', 2, 'label'),
      position('src/use-inferred.ts', 3, 'kind', 2),
      position('src/inferred.ts', 5, 'count', 2),
      position('src/inferred.ts', 5, 'count'),
    ];
    await definitionsAreTheServers(positions, (expected, where) =>
      assert.ok(
        expected.length === 1 && expected[0]!.startsWith('src/inferred.ts:'),
        `the server answers the literal's key at ${where}: ${expected}`,
      ),
    );
    await referencesAreTheServers(positions, (expected, where) => assert.ok(expected.length >= 1, `the server lists the key at ${where}`));
  });

  test("kysely's JavaScript: a key of a literal given to a generic is its own property, as the server's; the literal's methods are still called through the const", async () => {
    const key = position('lib/column-node.js', 5, 'kind');
    await definitionsAreTheServers([key], (expected, where) =>
      assert.deepEqual(expected, [`${key[0]}:${key[1]}:${key[2]}`], `the server answers the key itself at ${where}`),
    );
    await referencesAreTheServers([key], (expected, where) => assert.ok(expected.length >= 1, `the server lists the key at ${where}`));
    const [path, line, column] = position('lib/column-node.js', 4, 'create');
    const r = await session.ok('callHierarchy', { repo, path, line, column, direction: 'incoming' });
    assert.deepEqual(
      r.calls.map((c: any) => `${c.from.path}:${c.from.name}`),
      ['lib/use-column.js:column'],
      'the method is called through the const its declaration file types',
    );
  });

  test("an interface's property that extending interfaces narrow: its references are the server's, from each of them", async () => {
    const positions = [
      position('src/issues.ts', 3, 'format'),
      position('src/issues.ts', 6, 'format'),
      position('src/issues.ts', 15, 'format'),
      position('src/issues.ts', 16, 'format'),
      position('src/issues.ts', 16, 'format', 2),
    ];
    await referencesAreTheServers(positions, (expected, where) =>
      assert.equal(expected.length, 6, `the server lists the base's, both narrowings' and the three uses at ${where}`),
    );
  });
});
