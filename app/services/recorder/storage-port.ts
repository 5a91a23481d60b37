/**
 * The few storage operations the recorder needs, so the chunk store runs on IndexedDB in the browser
 * (idb-storage.ts) and on memory in tests or when IndexedDB is unavailable (private modes, blocked
 * storage). Keys are strings; prefix scans return values in key order.
 */
export type StoreName = "chunks" | "sessions" | "keys";

export type StorageOp =
  | { type: "put"; store: StoreName; key: string; value: unknown }
  /** Fails the whole commit with KeyExistsError when the key is taken (used to create the key once). */
  | { type: "add"; store: StoreName; key: string; value: unknown }
  | { type: "delete"; store: StoreName; key: string };

export interface RecorderStorage {
  /** False for the in-memory fallback: the audio would not survive a reload, and the UI says so. */
  readonly persistent: boolean;
  get(store: StoreName, key: string): Promise<unknown>;
  getAll(store: StoreName, prefix: string): Promise<unknown[]>;
  keys(store: StoreName, prefix: string): Promise<string[]>;
  /** All operations or none (one IndexedDB transaction). */
  commit(ops: readonly StorageOp[]): Promise<void>;
}

export class KeyExistsError extends Error {
  override name = "KeyExistsError";
}

export const STORE_NAMES: readonly StoreName[] = ["chunks", "sessions", "keys"];

/**
 * In-memory storage. Values are structured-cloned on the way in and out, as IndexedDB does, so code
 * that works here does not rely on sharing objects with the store.
 */
export type MemoryStorage = RecorderStorage & {
  /** The live contents of one store (tests look inside). */
  dump(store: StoreName): Map<string, unknown>;
};

export function createMemoryStorage(): MemoryStorage {
  const stores = new Map<StoreName, Map<string, unknown>>(STORE_NAMES.map((name) => [name, new Map()]));
  const table = (name: StoreName) => stores.get(name) as Map<string, unknown>;
  const sortedKeys = (name: StoreName, prefix: string) =>
    [...table(name).keys()].filter((key) => key.startsWith(prefix)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    persistent: false,
    async get(store, key) {
      const value = table(store).get(key);
      return value === undefined ? undefined : structuredClone(value);
    },
    async getAll(store, prefix) {
      return sortedKeys(store, prefix).map((key) => structuredClone(table(store).get(key)));
    },
    async keys(store, prefix) {
      return sortedKeys(store, prefix);
    },
    async commit(ops) {
      for (const op of ops) {
        if (op.type === "add" && table(op.store).has(op.key)) throw new KeyExistsError(`${op.store}/${op.key} exists`);
      }
      for (const op of ops) {
        if (op.type === "delete") table(op.store).delete(op.key);
        else table(op.store).set(op.key, structuredClone(op.value));
      }
    },
    dump: (store) => table(store),
  };
}
