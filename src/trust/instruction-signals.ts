// Instruction signals: spans of repository text that read as instructions to
// the agent receiving them rather than as code or documentation. Repository
// text is untrusted; an answer that carries it (previews, signatures, search
// matches, context lines) says what it found, so the agent can weigh it.
//
// The kinds are the SRC enum. Precision matters more than cleverness: code is
// full of "ignore", "run this command" and base64 test vectors, so every rule
// needs the text to address an assistant, name an instruction, or decode to
// one. Rules are plain regular expressions over one line at a time (every
// pattern here is linear: no nested quantifiers), behind one cheap trigger
// test so that the common line costs a single regex scan.

import { Lru } from '../lru.js';

export const SIGNAL_KINDS = [
  'instruction_override',
  'authority_spoofing',
  'tool_execution_request',
  'secret_exfiltration_request',
  'delimiter_spoofing',
  'hidden_unicode',
  'encoded_instruction',
] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

export interface InstructionSignal {
  kind: SignalKind;
  /** 1-based line of the signal in the text it was found in (its file, when the text is a file's line). */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
  /** UTF-16 offset of the signal from the start of the scanned piece. */
  offset: number;
  confidence: number;
  reason: string;
  /** Where the text came from: a repository path, or the answer's field. */
  source?: string;
}

export interface InstructionSignals {
  detected: boolean;
  count: number;
  kinds: SignalKind[];
  signals: InstructionSignal[];
  scanned_bytes: number;
  scan_truncated: boolean;
}

/** A piece of repository text placed where it came from. */
export interface ScanPiece {
  text: string;
  source?: string | undefined;
  /** 1-based line of the piece's first line (default 1). */
  line?: number | undefined;
  /** 1-based column of the piece's first character (default 1). */
  column?: number | undefined;
  /** The text is a path: separators read as spaces, so `ignore-previous-instructions.md` reads as words. */
  isPath?: boolean | undefined;
}

export interface ScanLimits {
  /** Text scanned per answer; the rest is counted as not scanned (`scan_truncated`). */
  maxBytes: number;
  /** Signals listed per answer; `count` still counts them all. */
  maxSignals: number;
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = { maxBytes: 512 * 1024, maxSignals: 50 };

interface Rule {
  kind: Exclude<SignalKind, 'hidden_unicode' | 'encoded_instruction'>;
  pattern: RegExp;
  confidence: number;
  reason: string;
}

/**
 * Lines scanned recently, with what they hold. A line's signals depend on its
 * text alone, and answers repeat lines: a warm query, the references of a
 * symbol in one file, context lines shared by neighbouring matches. Bounded
 * in lines and in the length of a line kept (at most ~8 MB of text).
 */
const LINE_CACHE = new Lru<string, Found[]>(8192);
const CACHED_LINE_MAX = 500;
/**
 * Paths as the scan reads them, separators made spaces, kept by path: an
 * answer names each file once per location (200 references, 200 paths), and
 * the same string each time is looked up in LINE_CACHE by a hash it keeps.
 */
const PATH_WORDS = new Lru<string, string>(8192);

// Words that address the reader as an AI model. Rules that would otherwise
// fire on ordinary build instructions ("run this command") require one.
const ADDRESSEE = String.raw`(?:AI|A\.I\.|assistant|agent|model|LLM|chat ?bot|copilot|claude|gpt|chatgpt|language model)`;
// Without "you" or "model", which code's documentation uses for people and data.
const AGENT = String.raw`(?:AI|assistant|agent|LLM|chat ?bot|copilot|claude|gpt|chatgpt)`;
const INSTRUCTION_NOUN = String.raw`(?:instructions?|prompts?|directives?|directions|guidelines|guardrails|system (?:prompt|message)|rules|constraints|context|messages)`;
const SECRET = String.raw`(?:api[ _-]?keys?|secret(?:s| keys?)?|access[ _-]?tokens?|auth(?:entication)?[ _-]?tokens?|credentials|passwords?|private[ _-]?keys?|ssh[ _-]?keys?|id_rsa|\.env\b|env(?:ironment)?(?: variables| vars)|AWS_SECRET_ACCESS_KEY|session cookies?)`;

const RULES: Rule[] = [
  {
    kind: 'instruction_override',
    pattern: new RegExp(
      String.raw`\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|each\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|preceding|foregoing|former|original|existing|current|system)\s+${INSTRUCTION_NOUN}`,
      'i',
    ),
    confidence: 0.95,
    reason: 'asks to ignore the instructions given before it',
  },
  {
    kind: 'instruction_override',
    pattern: new RegExp(
      String.raw`\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:your|the)\s+(?:${INSTRUCTION_NOUN}|training|programming)\b`,
      'i',
    ),
    confidence: 0.85,
    reason: "asks to ignore the reader's instructions",
  },
  {
    kind: 'instruction_override',
    pattern: new RegExp(
      String.raw`\b(?:your\s+)?new\s+(?:instructions|task|directives?|rules)\s+(?:are|is)\s*:|\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will|must|shall|should)|${ADDRESSEE}s?\b)|\byou\s+are\s+no\s+longer\s+(?:an?\s+)?${ADDRESSEE}`,
      'i',
    ),
    confidence: 0.8,
    reason: 'replaces the instructions the reader was given',
  },
  {
    kind: 'authority_spoofing',
    pattern: new RegExp(
      String.raw`(?<=^|[\s/*#<\[('"\x60>-])(?:system|developer|admin(?:istrator)?|root|operator|security team|openai|anthropic)\s*(?:message|prompt|notice|override|instruction|note|update)?\s*(?:\]|>|\))?\s*:\s*(?:you\s+(?:are|must|will|should|shall)|(?:the\s+)?${ADDRESSEE}s?\b)`,
      'i',
    ),
    confidence: 0.85,
    reason: 'speaks to the reader in the voice of its system, developer or administrator',
  },
  {
    kind: 'authority_spoofing',
    pattern: new RegExp(
      String.raw`\b(?:this\s+(?:message|note|instruction|comment)\s+(?:is|comes)\s+from|i\s+am|speaking\s+as|on\s+behalf\s+of)\s+(?:the|your)\s+(?:system|developers?|administrators?|admins?|creators?|operators?|security\s+team|owners?)\b.{0,80}?\b(?:you|${ADDRESSEE})\b`,
      'i',
    ),
    confidence: 0.8,
    reason: "claims to be the reader's system, developer or administrator",
  },
  {
    kind: 'authority_spoofing',
    pattern: new RegExp(
      String.raw`\b(?:you\s+are\s+now\s+in\s+(?:developer|admin|god|jailbreak|DAN)\s+mode|(?:developer|admin|god)\s+mode\s+(?:enabled|activated))\b`,
      'i',
    ),
    confidence: 0.85,
    reason: 'claims a privileged mode for the reader',
  },
  {
    kind: 'tool_execution_request',
    pattern: new RegExp(
      String.raw`\b${AGENT}s?\b[^.\n]{0,40}?\b(?:must|should|need\s+to|have\s+to|are\s+(?:required|instructed)\s+to|will\s+now)\s+(?:immediately\s+|now\s+|also\s+|first\s+)?(?:run|execute|invoke|call|eval(?:uate)?)\b`,
      'i',
    ),
    confidence: 0.8,
    reason: 'tells the reader to run something',
  },
  {
    kind: 'tool_execution_request',
    // A tool of an agent: quoted or snake_case as agents' tools are named, or
    // one of the tools every agent has. "Call the build tool with --watch" is
    // an ordinary instruction to a person.
    pattern:
      /\b(?:call|invoke|use|trigger)\s+(?:the\s+|your\s+)?(?:[`'"][\w.-]{2,40}[`'"]|\w+_\w+|shell|bash|terminal|exec|browser|computer|fetch|http)\s+tool\s+(?:with|to|now|immediately|and\s+(?:pass|send))\b/i,
    confidence: 0.75,
    reason: 'asks the reader to call one of its tools',
  },
  {
    kind: 'tool_execution_request',
    // "You should call" is how documentation talks to programmers; urgency or
    // secrecy is how an injected instruction talks to an agent.
    pattern:
      /\byou\s+(?:must|need\s+to|have\s+to|should|are\s+(?:required|instructed)\s+to)\s+(?:now\s+|immediately\s+)?(?:run|execute|invoke|call)\b[^.\n]{0,60}?(?:right\s+away|immediately|\bnow\b|without\s+(?:asking|telling|confirm)|do\s+not\s+(?:ask|tell|mention)|silently|before\s+(?:answering|responding|replying))/i,
    confidence: 0.75,
    reason: 'tells the reader to run something at once, without asking',
  },
  {
    kind: 'tool_execution_request',
    pattern: new RegExp(
      String.raw`\b(?:please\s+|now\s+|immediately\s+|silently\s+|quietly\s+)(?:run|execute)\s+(?:the\s+following|this)\s+(?:shell\s+|bash\s+|terminal\s+)?(?:command|script|code)\b[^.\n]{0,60}?(?:without\s+(?:asking|telling|confirm)|do\s+not\s+(?:ask|tell|mention)|immediately|silently)`,
      'i',
    ),
    confidence: 0.8,
    reason: 'asks the reader to run a command without asking',
  },
  {
    kind: 'secret_exfiltration_request',
    pattern: new RegExp(
      String.raw`\b(?:send|post|upload|exfiltrate|leak|forward|e-?mail|transmit|paste|copy|include|append)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|its\s+|our\s+)?(?:user'?s?\s+)?${SECRET}[^.\n]{0,60}?\b(?:to|into|at)\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.|(?:this|that|the\s+following|my|our|an?\s+external)\s+(?:url|address|endpoint|server|webhook|site|email|inbox|gist|pastebin)|the\s+attacker)`,
      'i',
    ),
    confidence: 0.9,
    reason: 'asks for secrets to be sent somewhere',
  },
  {
    kind: 'secret_exfiltration_request',
    pattern: new RegExp(
      String.raw`(?:\bcat\s+~?\/?[\w./-]*(?:\.ssh\/id_[a-z0-9]+|\.aws\/credentials|\.env|\.netrc)\b|\b(?:printenv|env)\b)\s*\|\s*(?:curl|wget|nc|ncat|base64)\b|\bcurl\b[^\n|]{0,120}?(?:-d|--data(?:-binary)?|-F)\s+[^\n]{0,40}?(?:\$\(?(?:printenv|env|cat\s+~)|@~?\/?[\w./-]*(?:id_rsa|\.env|credentials))`,
      'i',
    ),
    confidence: 0.85,
    reason: 'pipes secrets or the environment to the network',
  },
  {
    kind: 'delimiter_spoofing',
    pattern:
      /<\|(?:im_start|im_end|endoftext|system|user|assistant|end)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:tool_result|tool_use|tool_output|function_results|function_calls|antml:[a-z_]+)>|<(?:system|system-reminder|assistant_response|user_message)>\s*[A-Za-z]/i,
    confidence: 0.9,
    reason: 'imitates the delimiters of a model conversation or a tool result',
  },
  {
    kind: 'delimiter_spoofing',
    pattern: /(?<=^|["'`>]\s*|\\n)(?:Human|Assistant|System|User):\s+(?:ignore|you\s+(?:are|must|will)|please\s+(?:run|send|ignore)|now\s)/,
    confidence: 0.8,
    reason: 'imitates a turn of a model conversation',
  },
  {
    kind: 'delimiter_spoofing',
    pattern:
      /\b(?:end\s+of\s+(?:tool\s+(?:output|result)|function\s+results?|user\s+input|document|file\s+contents?)|(?:tool|function)\s+(?:output|result)\s+(?:ends|ended|complete)\s+here)\b[^\n]{0,40}?(?:[.:!-]\s*)(?:now\s+|new\s+)?(?:instructions?|system|you\s+(?:must|are|will|should))/i,
    confidence: 0.85,
    reason: 'pretends the text it belongs to has ended and new instructions begin',
  },
];

// Every rule above needs one of these words or characters: a line without
// any of them is passed by one scan. Keep in step with RULES.
const TRIGGER =
  /ignore|disregard|forget|override|bypass|skip|new\s+(?:instructions|task|directive|rules)|from\s+now|no\s+longer|system|developer|admin|root|operator|security|openai|anthropic|i\s+am|speaking|behalf|mode|must|should|need|have\s+to|required|instructed|will\s+now|tool|please|now|immediately|silently|quietly|send|post|upload|exfiltrate|leak|forward|mail|transmit|paste|copy|include|append|cat\s|printenv|env|curl|<\||INST\]|<<\/?SYS|<\/?[a-z_:-]+>|Human:|Assistant:|User:|end\s+of|ends|ended|complete/i;

// Zero-width characters, bidirectional controls and Unicode tag characters:
// invisible to a person reading the code, visible to a model.
const HIDDEN = /[\u200B-\u200F\u2060-\u2064\u202A-\u202E\u2066-\u2069\uFEFF\u00AD]|\uDB40[\uDC00-\uDC7F]/g;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\uFE0F\u20E3]/u;

// Each run is tried from its first character only (the lookbehinds): tried
// from every character, a line of long identifiers costs quadratic time.
const BASE64_RUN = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,}={0,2}|(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}/g;
const HEX_RUN = /(?:\\x[0-9a-fA-F]{2}){12,}|\b(?:0x)?(?:[0-9a-fA-F]{2}){16,}\b/g;
const URL_ENCODED_RUN = /[^\s"'`<>%]*(?:%[0-9a-fA-F]{2}[^\s"'`<>%]*){3,}/g;

/** Scans pieces of repository text in order, within the limits. */
export function scanInstructionSignals(pieces: Iterable<ScanPiece>, limits: ScanLimits = DEFAULT_SCAN_LIMITS): InstructionSignals {
  const signals: InstructionSignal[] = [];
  const kinds = new Set<SignalKind>();
  let count = 0;
  let scanned = 0;
  let truncated = false;
  const add = (signal: InstructionSignal) => {
    count++;
    kinds.add(signal.kind);
    if (signals.length < limits.maxSignals) signals.push(signal);
  };
  for (const piece of pieces) {
    if (truncated) break;
    let text = piece.text;
    // Bytes are counted as UTF-16 units: cheap, and within a factor of the
    // UTF-8 size for the text this sees.
    if (scanned + text.length > limits.maxBytes) {
      text = text.slice(0, Math.max(0, limits.maxBytes - scanned));
      truncated = true;
    }
    scanned += text.length;
    // Same length, so columns and offsets still point into the original.
    if (piece.isPath) text = pathWords(text);
    scanText(text, piece, add);
  }
  return {
    detected: count > 0,
    count,
    kinds: SIGNAL_KINDS.filter((k) => kinds.has(k)),
    signals,
    scanned_bytes: scanned,
    scan_truncated: truncated,
  };
}

function scanText(text: string, piece: ScanPiece, add: (s: InstructionSignal) => void): void {
  const baseLine = piece.line ?? 1;
  const baseColumn = piece.column ?? 1;
  let lineStart = 0;
  let lineIndex = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    const place = (at: number) => ({
      line: baseLine + lineIndex,
      column: (lineIndex === 0 ? baseColumn : 1) + at,
      offset: lineStart + at,
      ...(piece.source === undefined ? {} : { source: piece.source }),
    });
    for (const { at, ...found } of cachedLineSignals(line, lineStart === 0)) add({ ...found, ...place(at) });
    if (lineEnd === text.length) break;
    lineStart = lineEnd + 1;
    lineIndex++;
  }
}

interface Found {
  kind: SignalKind;
  at: number;
  confidence: number;
  reason: string;
}

function pathWords(path: string): string {
  if (path.length > CACHED_LINE_MAX) return path.replace(/[-_/.]/g, ' ');
  let words = PATH_WORDS.get(path);
  if (words === undefined) {
    words = path.replace(/[-_/.]/g, ' ');
    PATH_WORDS.set(path, words);
  }
  return words;
}

function cachedLineSignals(line: string, atStart: boolean): Found[] {
  // A byte-order mark reads differently at the start of a piece: such a line is not cached.
  if (line.length > CACHED_LINE_MAX || line.charCodeAt(0) === 0xfeff) return lineSignals(line, atStart);
  let found = LINE_CACHE.get(line);
  if (found === undefined) {
    found = lineSignals(line, atStart);
    LINE_CACHE.set(line, found);
  }
  return found;
}

/** The signals of one line; `atStart` is true for the first line of a piece (a byte-order mark is allowed there). */
export function lineSignals(line: string, atStart = false): Found[] {
  const found: Found[] = [];
  if (line.length === 0) return found;
  for (const f of textRules(line)) found.push(f);
  for (const f of hiddenUnicode(line, atStart)) found.push(f);
  for (const f of encodedInstructions(line)) found.push(f);
  return found;
}

function textRules(text: string): Found[] {
  if (!TRIGGER.test(text)) return [];
  // One signal per kind per line, where the earliest of its rules matched:
  // several rules of a kind that agree on a line say the same thing.
  const byKind = new Map<SignalKind, Found>();
  for (const rule of RULES) {
    const m = rule.pattern.exec(text);
    if (!m) continue;
    const at = m.index + (m[0].length - m[0].trimStart().length);
    const seen = byKind.get(rule.kind);
    if (!seen || at < seen.at) byKind.set(rule.kind, { kind: rule.kind, at, confidence: rule.confidence, reason: rule.reason });
  }
  return [...byKind.values()];
}

function hiddenUnicode(line: string, atStart: boolean): Found[] {
  HIDDEN.lastIndex = 0;
  if (!HIDDEN.test(line)) return [];
  HIDDEN.lastIndex = 0;
  const names: string[] = [];
  let first = -1;
  for (let m = HIDDEN.exec(line); m; m = HIDDEN.exec(line)) {
    const ch = m[0];
    const at = m.index;
    if (ch === '\uFEFF' && atStart && at === 0) continue; // a byte-order mark
    // A zero-width joiner or non-joiner inside an emoji sequence or between
    // letters of a script that needs it (Persian, Indic) is text, not a trick.
    if ((ch === '\u200D' || ch === '\u200C') && (nearPictograph(line, at) || betweenNonLatinLetters(line, at))) continue;
    // Tag characters after a black flag spell a subdivision flag (🏴 + gbeng + cancel tag).
    if (ch.charCodeAt(0) === 0xdb40 && inFlagTagSequence(line, at)) continue;
    if (ch === '\u00AD' && betweenLetters(line, at)) continue; // a soft hyphen inside a word
    if (first < 0) first = at;
    names.push(hiddenName(ch));
  }
  if (first < 0) return [];
  const distinct = [...new Set(names)];
  const tags = names.filter((n) => n === 'tag character').length;
  const bidi = names.some((n) => n.startsWith('bidi'));
  return [
    {
      kind: 'hidden_unicode',
      at: first,
      confidence: tags >= 2 || bidi || names.length >= 3 ? 0.95 : 0.7,
      reason: `${names.length} invisible character${names.length === 1 ? '' : 's'} (${distinct.join(', ')})`,
    },
  ];
}

function hiddenName(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code === 0xdb40) return 'tag character';
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 'bidi control';
  if (code === 0x200e || code === 0x200f) return 'bidi mark';
  if (code === 0xfeff) return 'zero-width no-break space';
  if (code === 0x00ad) return 'soft hyphen';
  return `zero-width U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function nearPictograph(line: string, at: number): boolean {
  return PICTOGRAPH.test(line.slice(Math.max(0, at - 2), at)) || PICTOGRAPH.test(line.slice(at + 1, at + 3));
}

function betweenLetters(line: string, at: number): boolean {
  return /\p{L}/u.test(line[at - 1] ?? '') && /\p{L}/u.test(line[at + 1] ?? '');
}

function betweenNonLatinLetters(line: string, at: number): boolean {
  const nonLatin = /^[\p{L}\p{M}]$/u;
  const latin = /^\p{Script=Latin}$/u;
  const before = line[at - 1] ?? '';
  const after = line[at + 1] ?? '';
  return nonLatin.test(before) && nonLatin.test(after) && !latin.test(before) && !latin.test(after);
}

function inFlagTagSequence(line: string, at: number): boolean {
  let i = at;
  while (i >= 2 && line.charCodeAt(i - 2) === 0xdb40) i -= 2;
  return line.codePointAt(i - 2) === 0x1f3f4;
}

/** Base64, hex and URL-encoded runs that decode to text one of the rules flags. */
function encodedInstructions(line: string): Found[] {
  const found: Found[] = [];
  const tryDecoded = (at: number, decoded: string | null, encoding: string) => {
    if (!decoded || !isMostlyText(decoded)) return;
    const inner = textRules(decoded);
    if (inner.length === 0 && !/ignore|instruction|system prompt/i.test(decoded)) return;
    const kindsInside = [...new Set(inner.map((f) => f.kind))];
    found.push({
      kind: 'encoded_instruction',
      at,
      confidence: inner.length ? 0.9 : 0.6,
      reason: `${encoding} text that decodes to ${kindsInside.length ? kindsInside.join(', ') : 'instruction words'}: "${clip(decoded, 60)}"`,
    });
  };
  if (line.length >= 24) {
    BASE64_RUN.lastIndex = 0;
    for (let m = BASE64_RUN.exec(line); m; m = BASE64_RUN.exec(line)) tryDecoded(m.index, decodeBase64(m[0]), 'base64');
    HEX_RUN.lastIndex = 0;
    for (let m = HEX_RUN.exec(line); m; m = HEX_RUN.exec(line)) tryDecoded(m.index, decodeHex(m[0]), 'hex');
  }
  if (line.includes('%')) {
    URL_ENCODED_RUN.lastIndex = 0;
    for (let m = URL_ENCODED_RUN.exec(line); m; m = URL_ENCODED_RUN.exec(line)) tryDecoded(m.index, decodeUrl(m[0]), 'URL-encoded');
  }
  return found.slice(0, 1);
}

function decodeBase64(run: string): string | null {
  // Plain base64 and its URL-safe variant; padding may be missing.
  const normal = run.replace(/-/g, '+').replace(/_/g, '/');
  try {
    return Buffer.from(normal, 'base64').toString('latin1');
  } catch {
    return null;
  }
}

function decodeHex(run: string): string | null {
  const digits = run.replace(/\\x|^0x/g, '');
  return digits.length % 2 === 0 ? Buffer.from(digits, 'hex').toString('latin1') : null;
}

function decodeUrl(run: string): string | null {
  try {
    return decodeURIComponent(run);
  } catch {
    return null;
  }
}

/** Decoded bytes read as words: printable ASCII with spaces, not binary noise. */
function isMostlyText(s: string): boolean {
  if (s.length < 12) return false;
  let printable = 0;
  let spaces = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) spaces++;
    if ((c >= 32 && c < 127) || c === 9 || c === 10) printable++;
  }
  return printable / s.length > 0.95 && spaces >= 2;
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…`;
}
