import http from "node:http";

export interface StreamedPost {
  status: number;
  body: string;
  /** Body bytes this client handed to the socket before the answer came. */
  sent: number;
}

/**
 * POSTs up to `totalBytes` as a chunked body (no Content-Length) and stops writing as soon as an
 * answer arrives, as a client would that reads answers while sending.
 */
export function streamChunkedPost(url: string, totalBytes: number, headers: Record<string, string> = {}): Promise<StreamedPost> {
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: "POST", headers }, (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, body, sent }));
    });
    // Once the server answered and closed, a write in flight may meet a reset: that is the point.
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    const write = () => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", write);
          return;
        }
      }
      if (!answered) req.end();
    };
    write();
  });
}

/** Resident memory of a process, in bytes (Linux /proc). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb * 1024;
}
