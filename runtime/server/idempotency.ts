/**
 * Where first successful 3.0 responses are kept for replay. A key is scoped as the spec scopes it: one
 * application or webhook, one user, one method (the router builds the store key from all four).
 *
 * A store takes a key for one run atomically (`reserve`): of several instances that share it, exactly one runs
 * the method for a key; the others wait and replay its answer (two instances sharing
 * a store of `get` and `set` both ran the handler). A reservation is a lease: an instance that dies while it runs
 * loses the key when the lease ends, and the next repeat runs it.
 *
 * The default store is in memory and bounded in bytes and records. It drops records by age first (each after its
 * time to live), then:
 * - per caller: a caller holds at most `maxEntriesPerCaller` records; its own oldest goes first;
 * - in all: past `maxEntries` or `maxBytes`, the oldest record of the caller holding the most goes.
 * So no caller can flush another's records: a record within its time to live, among its caller's latest
 * `min(maxEntriesPerCaller, maxEntries / callers)`, is always replayed. Each eviction is reported (`onEvict`, and
 * counted in `stats()`), since a repeat of an evicted key runs its method again.
 */

export interface IdempotencyRecord {
  bodyHash: string;
  body: string;
}

/** What `reserve` found: the key is this caller's to run, another run holds it, or an answer is kept. */
export type Reservation =
  | { state: "reserved"; lease: string }
  | { state: "running"; bodyHash: string }
  | { state: "done"; record: IdempotencyRecord };

/** A store with an atomic reserve-or-wait and a byte bound: what several instances share. */
export interface AtomicIdempotencyStore {
  /**
   * Takes `key` for one run, atomically: `reserved` (run the method, then `complete` or `release` with the lease),
   * `running` (another run holds it: ask again later) or `done` (a kept answer). `leaseMs` bounds how long a run
   * may hold the key.
   */
  reserve(key: string, bodyHash: string, leaseMs: number, scope: string): Promise<Reservation>;
  /** Keeps the answer of a run for `ttlMs`, if the lease is still this run's. */
  complete(key: string, lease: string, record: IdempotencyRecord, ttlMs: number, scope: string): Promise<void>;
  /** Gives the key back without an answer (the method failed: errors are not kept). */
  release(key: string, lease: string): Promise<void>;
  /**
   * Keeps a run's hold on its key for another `leaseMs`, while the lease is still its own. The router calls it while
   * a method runs, so that a slow method is not run a second time when its first lease ends. Optional: without it a
   * run longer than the lease may be run again by a repeat.
   */
  extend?(key: string, lease: string, leaseMs: number): Promise<void>;
}

/**
 * The store interface of earlier versions: a plain `get` and `set`. Still accepted (through an adapter until the
 * next major); the adapter reserves within one process only, so instances sharing such a store may each run a key.
 * @deprecated Implement `AtomicIdempotencyStore`.
 */
export interface IdempotencyStore {
  get(key: string): Promise<IdempotencyRecord | undefined>;
  /** `scope` names the caller (application or webhook, and user) for stores that bound callers separately. */
  set(key: string, value: IdempotencyRecord, ttlMs: number, scope?: string): Promise<void>;
}

export interface EvictionEvent {
  scope: string;
  reason: "caller-share" | "capacity" | "too-large";
}

export interface MemoryStoreOptions {
  /** Records in all. Default 10,000. */
  maxEntries?: number;
  /** Records of one caller. Default 1,000. */
  maxEntriesPerCaller?: number;
  /**
   * Bytes of kept answers in all (UTF-16 code units of key and body, as the heap holds them). Default 64 MiB, which
   * fits Node's default heap with room to spare; an answer larger than an eighth of it is not kept.
   */
  maxBytes?: number;
  now?: () => number;
  onEvict?: (event: EvictionEvent) => void;
}

export interface MemoryStore extends AtomicIdempotencyStore, IdempotencyStore {
  readonly size: number;
  /** Bytes of the kept answers. */
  readonly bytes: number;
  stats(): { size: number; bytes: number; callers: number; evictions: { callerShare: number; capacity: number; tooLarge: number } };
}

interface Entry {
  value: IdempotencyRecord;
  expires: number;
  scope: string;
  size: number;
}

export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

let leases = 0;
/** A lease name unique in this process (a store shared by processes adds its own randomness). */
export function newLease(): string {
  leases = (leases + 1) % Number.MAX_SAFE_INTEGER;
  return `${Date.now().toString(36)}-${leases.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The runs under way in this process, by key: the reservations of the memory store and of the adapter. */
function localRuns(now: () => number) {
  const running = new Map<string, { lease: string; bodyHash: string; until: number }>();
  return {
    /** The run that holds `key`, if its lease has not ended. */
    holder(key: string) {
      const r = running.get(key);
      return r && r.until > now() ? r : undefined;
    },
    take(key: string, bodyHash: string, leaseMs: number): Reservation {
      const lease = newLease();
      running.set(key, { lease, bodyHash, until: now() + leaseMs });
      return { state: "reserved", lease };
    },
    /** Ends the run that holds `key` with `lease`; false when the lease is no longer its. */
    end(key: string, lease: string): boolean {
      if (running.get(key)?.lease !== lease) return false;
      running.delete(key);
      return true;
    },
    extend(key: string, lease: string, leaseMs: number) {
      const r = running.get(key);
      if (r?.lease === lease) r.until = now() + leaseMs;
    },
  };
}

export function createMemoryIdempotencyStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const perCaller = options.maxEntriesPerCaller ?? 1_000;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRecord = Math.floor(maxBytes / 8);
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const scopes = new Map<string, Map<string, true>>();
  const runs = localRuns(now);
  const evictions = { callerShare: 0, capacity: 0, tooLarge: 0 };
  let bytes = 0;

  const remove = (key: string): void => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    bytes -= e.size;
    const s = scopes.get(e.scope);
    s?.delete(key);
    if (s && s.size === 0) scopes.delete(e.scope);
  };
  const sweep = (): void => {
    const t = now();
    for (const [k, e] of entries) {
      if (e.expires > t) break;
      remove(k);
    }
  };
  const evictOldestOf = (scope: string, reason: EvictionEvent["reason"]): void => {
    const s = scopes.get(scope);
    const oldest = s?.keys().next().value;
    if (oldest === undefined) return;
    remove(oldest);
    evictions[reason === "caller-share" ? "callerShare" : "capacity"]++;
    options.onEvict?.({ scope, reason });
  };
  const live = (key: string): Entry | undefined => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (e.expires <= now()) {
      remove(key);
      return undefined;
    }
    return e;
  };
  const keep = (key: string, value: IdempotencyRecord, ttlMs: number, scope: string): void => {
    remove(key);
    const size = key.length + value.body.length + value.bodyHash.length;
    if (size > maxRecord) {
      evictions.tooLarge++;
      options.onEvict?.({ scope, reason: "too-large" });
      return;
    }
    entries.set(key, { value, expires: now() + ttlMs, scope, size });
    bytes += size;
    let s = scopes.get(scope);
    if (!s) scopes.set(scope, (s = new Map()));
    s.set(key, true);
    sweep();
    while (s.size > perCaller) evictOldestOf(scope, "caller-share");
    while (entries.size > maxEntries || bytes > maxBytes) {
      let largest = scope;
      let most = -1;
      for (const [name, keys] of scopes) {
        if (keys.size > most) {
          most = keys.size;
          largest = name;
        }
      }
      evictOldestOf(largest, "capacity");
    }
  };

  return {
    async reserve(key, bodyHash, leaseMs) {
      const e = live(key);
      if (e) return { state: "done", record: e.value };
      const r = runs.holder(key);
      return r ? { state: "running", bodyHash: r.bodyHash } : runs.take(key, bodyHash, leaseMs);
    },
    async complete(key, lease, record, ttlMs, scope) {
      if (runs.end(key, lease)) keep(key, record, ttlMs, scope);
    },
    async release(key, lease) {
      runs.end(key, lease);
    },
    async extend(key, lease, leaseMs) {
      runs.extend(key, lease, leaseMs);
    },
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlMs, scope = "") {
      keep(key, value, ttlMs, scope);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return bytes;
    },
    stats() {
      return { size: entries.size, bytes, callers: scopes.size, evictions: { ...evictions } };
    },
  };
}

/** Whether a store has the atomic interface, or only the old `get` and `set`. */
export function isAtomicStore(store: AtomicIdempotencyStore | IdempotencyStore): store is AtomicIdempotencyStore {
  const s = store as Partial<AtomicIdempotencyStore>;
  return typeof s.reserve === "function" && typeof s.complete === "function" && typeof s.release === "function";
}

/**
 * A store of the old interface behind the atomic one: reservations are kept in this process, so one instance
 * runs a key once; instances sharing such a store do not see each other's runs (the reason for the new interface).
 */
export function adaptIdempotencyStore(store: AtomicIdempotencyStore | IdempotencyStore, now: () => number = Date.now): AtomicIdempotencyStore {
  if (isAtomicStore(store)) return store;
  const runs = localRuns(now);
  return {
    async reserve(key, bodyHash, leaseMs) {
      const record = await store.get(key);
      if (record) return { state: "done", record };
      const r = runs.holder(key);
      return r ? { state: "running", bodyHash: r.bodyHash } : runs.take(key, bodyHash, leaseMs);
    },
    async complete(key, lease, record, ttlMs, scope) {
      if (runs.end(key, lease)) await store.set(key, record, ttlMs, scope);
    },
    async release(key, lease) {
      runs.end(key, lease);
    },
    async extend(key, lease, leaseMs) {
      runs.extend(key, lease, leaseMs);
    },
  };
}
