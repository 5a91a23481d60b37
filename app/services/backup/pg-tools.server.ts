// pg_dump / pg_restore as child processes: a missing tool is an operator's message, not a stack trace.

import { spawn } from "node:child_process";
import { BackupError } from "./errors.server.ts";

export function runPgTool(command: "pg_dump" | "pg_restore", args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        reject(
          new BackupError(
            "pg_tool_missing",
            `${command} was not found: install the PostgreSQL client tools (the server's major version or newer), or use your own PostgreSQL tooling (docs/operations.md)`,
          ),
        );
      } else reject(error);
    });
    child.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new BackupError("pg_tool_failed", `${command} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}
