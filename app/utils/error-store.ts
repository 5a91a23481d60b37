import { ERROR_STORE_MAX_ENTRIES } from "./constants.ts";

/** SPEC §3 error store entry. */
export type ErrorSeverity = "low" | "medium" | "high" | "critical";
export interface ErrorEntry {
  id: string;
  message: string;
  type: string;
  severity: ErrorSeverity;
  timestamp: number;
  context?: Record<string, unknown>;
  resolved: boolean;
}

type Reporter = (entry: ErrorEntry, error?: unknown) => void;
type Listener = (entries: readonly ErrorEntry[]) => void;

/** Keeps the last 20 client errors (SPEC §8); high and critical ones go to the reporter. */
export function createErrorStore(max = ERROR_STORE_MAX_ENTRIES) {
  let entries: ErrorEntry[] = [];
  let reporter: Reporter | null = null;
  const listeners = new Set<Listener>();
  let counter = 0;

  function emit() {
    for (const l of listeners) l(entries);
  }

  return {
    add(input: { message: string; type?: string; severity?: ErrorSeverity; context?: Record<string, unknown> }, error?: unknown) {
      const entry: ErrorEntry = {
        id: `${Date.now().toString(36)}-${(counter++).toString(36)}`,
        message: input.message,
        type: input.type ?? "system",
        severity: input.severity ?? "medium",
        timestamp: Date.now(),
        context: input.context,
        resolved: false,
      };
      entries = [...entries, entry].slice(-max);
      if (entry.severity === "high" || entry.severity === "critical") reporter?.(entry, error);
      emit();
      return entry;
    },
    resolve(id: string) {
      entries = entries.map((e) => (e.id === id ? { ...e, resolved: true } : e));
      emit();
    },
    clear() {
      entries = [];
      emit();
    },
    list(): readonly ErrorEntry[] {
      return entries;
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setReporter(next: Reporter | null) {
      reporter = next;
    },
  };
}

export type ErrorStore = ReturnType<typeof createErrorStore>;
export const errorStore = createErrorStore();
