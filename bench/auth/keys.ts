/** The API keys the server prints once, on its first start, in its JSON (pino) log. */
export type AuthKeys = { anonKey: string; serviceRoleKey: string };

const MARKER = "auth keys generated";

/** Collects server output until the "auth keys generated" line has been seen. */
export function keyWatcher(): { onOutput: (text: string) => void; keys: () => AuthKeys } {
  let buffered = "";
  let found: AuthKeys | null = null;
  return {
    onOutput(text) {
      if (found) return;
      buffered += text;
      for (const line of buffered.split("\n")) {
        if (!line.includes(MARKER)) continue;
        try {
          const entry = JSON.parse(line) as Partial<AuthKeys>;
          if (entry.anonKey && entry.serviceRoleKey) found = { anonKey: entry.anonKey, serviceRoleKey: entry.serviceRoleKey };
        } catch {
          // a partial line; the rest arrives with the next chunk
        }
      }
      // Only an unfinished last line can still matter.
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    },
    keys() {
      if (!found) throw new Error(`the server never logged "${MARKER}" (is LOG_LEVEL above warn, or the data directory reused?)`);
      return found;
    },
  };
}
