import http from "node:http";
import zlib from "node:zlib";

export type RawResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body exactly as it crossed the wire (still gzipped if the server compressed it). */
  wire: Buffer;
  /** The decoded body. */
  body: Buffer;
};

// Like a browser, we ask for gzip only: the server also speaks brotli, and the budget is about gzip.
export const BROWSER_HEADERS: Record<string, string> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "gzip",
  "accept-language": "en-US,en;q=0.9",
  // A browser user agent keeps the SSR path the one real visitors get (bots wait for onAllReady).
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 murmur-bench",
};

/**
 * GET with node:http rather than fetch: fetch decompresses transparently and hides the transfer
 * size, which is one of the numbers we report.
 */
export function getRaw(url: string, headers: Record<string, string> = BROWSER_HEADERS): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        try {
          const body = res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(wire) : wire;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, body });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
  });
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await getRaw(url, { accept: "application/json", "accept-encoding": "gzip" });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return JSON.parse(res.body.toString("utf8")) as T;
}
