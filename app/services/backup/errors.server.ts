// Backup and restore failures an operator can act on: a stable code for scripts and monitoring,
// and an English sentence (these are command-line tools run by an operator, not pages).

export type BackupErrorCode =
  | "archive_damaged"
  | "manifest_missing"
  | "checksum_mismatch"
  | "file_missing"
  | "unexpected_file"
  | "unsafe_path"
  | "target_not_empty"
  | "output_exists"
  | "data_dir_missing"
  | "pg_tool_missing"
  | "pg_tool_failed"
  | "database_not_empty"
  | "database_url_missing"
  | "server_refused";

export class BackupError extends Error {
  readonly code: BackupErrorCode;
  constructor(code: BackupErrorCode, message: string) {
    super(message);
    this.name = "BackupError";
    this.code = code;
  }
}
