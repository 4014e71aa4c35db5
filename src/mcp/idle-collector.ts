// Garbage collection while the server waits for its next question.
//
// A scavenge of V8's young generation costs what survives it, and what an
// answer leaves in the caches (decoded documents, files' lines) survives. On
// the held-out repositories such scavenges stopped 1 in 10 first answers for
// 1–4 ms, at whatever point an answer happened to fill the young generation.
// Collected once the server has been quiet for a moment, the young
// generation is near empty when the next question comes, and an answer that
// allocates less than it holds is not stopped at all. A burst of calls is
// left alone: the timer restarts with each one.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long the server must have answered nothing before it collects. */
const QUIET_MS = 10;
/** Young-generation bytes below which a scavenge would buy nothing. */
export const WORTH_COLLECTING = 256 * 1024;

type Collect = (options: { type: 'minor' | 'major' }) => void;

export class IdleCollector {
  private timer: NodeJS.Timeout | undefined;

  /** `busy` says whether a call is being answered; the collection waits for the next quiet moment if so. */
  constructor(
    private readonly collect: Collect,
    private readonly busy: () => boolean,
    private readonly young: () => number = youngBytes,
  ) {}

  /** A collector, or none where V8 will not hand out its collector. */
  static create(busy: () => boolean): IdleCollector | undefined {
    const collect = exposedCollector();
    return collect && new IdleCollector(collect, busy);
  }

  /** Something just allocated (a call was answered, background work paused): collect once quiet. */
  poke(): void {
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.quiet(), QUIET_MS).unref();
  }

  private quiet(): void {
    this.timer = undefined;
    if (this.busy()) return;
    if (this.young() >= WORTH_COLLECTING) this.collect({ type: 'minor' });
  }
}

/** Bytes in use in V8's young generation. */
export function youngBytes(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_used_size;
  return 0;
}

/**
 * V8's `gc`, without starting node with --expose-gc (the MCP client starts
 * the server; a flag would need a second process): the flag, set now, takes
 * effect in contexts made after it.
 */
function exposedCollector(): Collect | undefined {
  setFlagsFromString('--expose-gc');
  const collect: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof collect === 'function' ? (collect as Collect) : undefined;
}
