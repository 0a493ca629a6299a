/**
 * Where first successful 3.0 responses are kept for replay. A key is scoped as the spec scopes it: one
 * application or webhook, one user, one method (the router builds the store key from all four).
 *
 * The default store is in memory and bounded. It drops records by age first (each after its time to live), then:
 * - per caller: a caller holds at most `maxEntriesPerCaller` records; its own oldest goes first;
 * - in all: past `maxEntries`, the oldest record of the caller holding the most goes.
 * So no caller can flush another's records: a record within its time to live, among its caller's latest
 * `min(maxEntriesPerCaller, maxEntries / callers)`, is always replayed. Each eviction is reported (`onEvict`, and
 * counted in `stats()`), since a repeat of an evicted key runs its method again.
 */

export interface IdempotencyRecord {
  bodyHash: string;
  body: string;
}

export interface IdempotencyStore {
  get(key: string): Promise<IdempotencyRecord | undefined>;
  /** `scope` names the caller (application or webhook, and user) for stores that bound callers separately. */
  set(key: string, value: IdempotencyRecord, ttlMs: number, scope?: string): Promise<void>;
}

export interface EvictionEvent {
  scope: string;
  reason: "caller-share" | "capacity";
}

export interface MemoryStoreOptions {
  /** Records in all. Default 10,000. */
  maxEntries?: number;
  /** Records of one caller. Default 1,000. */
  maxEntriesPerCaller?: number;
  now?: () => number;
  onEvict?: (event: EvictionEvent) => void;
}

export interface MemoryStore extends IdempotencyStore {
  readonly size: number;
  stats(): { size: number; callers: number; evictions: { callerShare: number; capacity: number } };
}

interface Entry {
  value: IdempotencyRecord;
  expires: number;
  scope: string;
}

export function createMemoryIdempotencyStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxEntries = options.maxEntries ?? 10_000;
  const perCaller = options.maxEntriesPerCaller ?? 1_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const scopes = new Map<string, Map<string, true>>();
  const evictions = { callerShare: 0, capacity: 0 };

  const remove = (key: string): void => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
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

  return {
    async get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.expires <= now()) {
        remove(key);
        return undefined;
      }
      return e.value;
    },
    async set(key, value, ttlMs, scope = "") {
      remove(key);
      entries.set(key, { value, expires: now() + ttlMs, scope });
      let s = scopes.get(scope);
      if (!s) scopes.set(scope, (s = new Map()));
      s.set(key, true);
      sweep();
      while (s.size > perCaller) evictOldestOf(scope, "caller-share");
      while (entries.size > maxEntries) {
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
    },
    get size() {
      return entries.size;
    },
    stats() {
      return { size: entries.size, callers: scopes.size, evictions: { ...evictions } };
    },
  };
}
