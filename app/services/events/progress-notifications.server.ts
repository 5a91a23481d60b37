import pg from "pg";
import type { Database } from "#app/db/database.server.ts";

/** The channel migration 0043 notifies on; payload `<table>:<id>`. */
export const PROGRESS_CHANNEL = "murmur_progress";
export type ProgressTable = "visits" | "notes";

/**
 * Wakes the event streams of this process when a row they follow changes, whichever process
 * changed it (ADR 0038): on a server PostgreSQL one LISTEN connection per process, on the embedded
 * PGlite its in-process LISTEN. Notifications only make streams read sooner; the streams still poll
 * (more slowly) so a notification lost to a dropped connection delays an event, never loses it.
 */
export interface ProgressNotifications {
  /** Calls `onChange` whenever `table`'s row `id` may have changed; returns the unsubscribe. */
  subscribe(table: ProgressTable, id: string, onChange: () => void): () => void;
  /** True while notifications arrive; false before the first LISTEN and after a lost connection. */
  readonly live: boolean;
  close(): Promise<void>;
}

const RECONNECT_MIN_MS = 1000;
const RECONNECT_MAX_MS = 30_000;

const byDatabase = new Map<Database, ProgressNotifications>();

/** This process's listener on `db`, started on first use. */
export function progressNotifications(db: Database): ProgressNotifications {
  let listener = byDatabase.get(db);
  if (!listener) {
    listener = createListener(db);
    byDatabase.set(db, listener);
  }
  return listener;
}

/** Ends the listener of `db` (the runtime's close, before the database closes). */
export async function closeProgressNotifications(db: Database): Promise<void> {
  const listener = byDatabase.get(db);
  byDatabase.delete(db);
  await listener?.close();
}

function createListener(db: Database): ProgressNotifications {
  const subscribers = new Map<string, Set<() => void>>();
  let live = false;
  let closed = false;
  let stop: (() => Promise<void>) | null = null;
  let retryMs = RECONNECT_MIN_MS;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const deliver = (payload: string | undefined) => {
    for (const wake of subscribers.get(payload ?? "") ?? []) wake();
  };
  /** After a gap without notifications every stream reads once: it may have missed one. */
  const wakeAll = () => {
    for (const set of subscribers.values()) for (const wake of set) wake();
  };

  const connect = async () => {
    // The embedded database is one session shared with the pool: a LISTEN queued behind an open
    // transaction stalled every later query (the e2e journeys hung on the visit page). It is also
    // one process, so there is no other process to hear from: its streams poll, as before ADR 0038.
    if (closed || db.kind === "pglite") return;
    try {
      stop = await listenPostgres(db, deliver, lost);
      if (closed) {
        await stop();
        return;
      }
      live = true;
      retryMs = RECONNECT_MIN_MS;
      wakeAll();
    } catch {
      lost();
    }
  };
  function lost() {
    live = false;
    stop = null;
    if (closed) return;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void connect(), retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  }
  void connect();

  return {
    get live() {
      return live;
    },
    subscribe(table, id, onChange) {
      const key = `${table}:${id}`;
      const set = subscribers.get(key) ?? new Set();
      set.add(onChange);
      subscribers.set(key, set);
      return () => {
        set.delete(onChange);
        if (set.size === 0 && subscribers.get(key) === set) subscribers.delete(key);
      };
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(retryTimer);
      subscribers.clear();
      await stop?.().catch(() => {});
    },
  };
}

/** A connection of its own, outside the pool: a LISTEN lasts as long as its session. */
async function listenPostgres(
  db: Database,
  deliver: (payload: string | undefined) => void,
  lost: () => void,
): Promise<() => Promise<void>> {
  const client = new pg.Client(db.pool.options);
  let ended = false;
  const onLost = () => {
    if (ended) return;
    ended = true;
    client.end().catch(() => {});
    lost();
  };
  client.on("error", onLost);
  client.on("end", onLost);
  client.on("notification", (message) => {
    if (message.channel === PROGRESS_CHANNEL) deliver(message.payload);
  });
  try {
    await client.connect();
    await client.query(`listen ${PROGRESS_CHANNEL}`);
  } catch (error) {
    // The caller schedules the retry: this attempt must not schedule one too.
    ended = true;
    client.end().catch(() => {});
    throw error;
  }
  return async () => {
    ended = true;
    await client.end();
  };
}

/** What an event stream following one row needs (polling-event-stream.server.ts's `changes`). */
export function rowChanges(
  db: Database,
  table: ProgressTable,
  id: string,
): { subscribe(onChange: () => void): () => void; readonly live: boolean } {
  const notifications = progressNotifications(db);
  return {
    subscribe: (onChange) => notifications.subscribe(table, id, onChange),
    get live() {
      return notifications.live;
    },
  };
}
