import { RECORDER_DB_NAME, RECORDER_DB_VERSION } from "./constants.ts";
import { KeyExistsError, type RecorderStorage, STORE_NAMES, type StoreName } from "./storage-port.ts";

export interface IdbDeps {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
  name?: string;
}

function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function openDatabase(deps: IdbDeps): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = deps.indexedDB.open(deps.name ?? RECORDER_DB_NAME, RECORDER_DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const name of STORE_NAMES) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB open failed"));
    // Another tab holds an older version open; it closes on versionchange below, so just wait.
    request.onblocked = () => {};
  });
}

/**
 * The recorder's IndexedDB (issue 5: every chunk goes to IndexedDB first). Three object stores with
 * out-of-line string keys; a commit is one readwrite transaction, resolved only once it is durable
 * enough for the browser to report complete.
 */
export async function openIdbStorage(deps: IdbDeps): Promise<RecorderStorage> {
  const db = await openDatabase(deps);
  // A newer page version upgrading the schema must not be blocked by this tab.
  db.onversionchange = () => db.close();
  const range = (prefix: string) => (prefix ? deps.IDBKeyRange.bound(prefix, `${prefix}\uffff`) : undefined);
  const read = (store: StoreName) => db.transaction(store, "readonly").objectStore(store);
  return {
    persistent: true,
    get: (store, key) => requestResult(read(store).get(key)),
    getAll: (store, prefix) => requestResult(read(store).getAll(range(prefix))),
    keys: async (store, prefix) => (await requestResult(read(store).getAllKeys(range(prefix)))).map(String),
    commit(ops) {
      const names = [...new Set(ops.map((op) => op.store))];
      if (names.length === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const tx = db.transaction(names, "readwrite", { durability: "strict" });
        let failure: unknown = null;
        for (const op of ops) {
          const store = tx.objectStore(op.store);
          const request =
            op.type === "delete"
              ? store.delete(op.key)
              : op.type === "add"
                ? store.add(op.value, op.key)
                : store.put(op.value, op.key);
          request.onerror = () => {
            failure =
              op.type === "add" && request.error?.name === "ConstraintError"
                ? new KeyExistsError(`${op.store}/${op.key} exists`)
                : request.error;
          };
        }
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(failure ?? tx.error ?? new Error("IndexedDB transaction failed"));
        tx.onabort = () => reject(failure ?? tx.error ?? new Error("IndexedDB transaction aborted"));
      });
    },
  };
}
