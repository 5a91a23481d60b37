// A minimal POSIX ustar writer and reader for backup archives (ADR 0024): regular files only, so an
// operator can still list or unpack an archive with `tar xzf`, without a new dependency. Names go
// in the ustar prefix/name pair (255 characters at most, far above our longest blob key).

import { BackupError } from "./errors.server.ts";

const BLOCK = 512;

export interface TarFileHeader {
  path: string;
  size: number;
  mode: number;
  mtime: number;
  /** A folder entry (ustar type 5): PostgreSQL needs its empty folders (pg_tblspc, pg_notify…). */
  directory?: boolean;
}

function writeString(buf: Buffer, at: number, length: number, value: string): void {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > length) throw new Error(`tar field too long: ${value}`);
  bytes.copy(buf, at);
}

function writeOctal(buf: Buffer, at: number, length: number, value: number): void {
  writeString(buf, at, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
}

/** Splits a path over ustar's prefix (155) and name (100) fields at a slash. */
function splitName(path: string): { prefix: string; name: string } {
  if (Buffer.byteLength(path) <= 100) return { prefix: "", name: path };
  for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`path too long for a tar archive: ${path}`);
}

export function tarHeader(file: TarFileHeader): Buffer {
  const header = Buffer.alloc(BLOCK);
  const { prefix, name } = splitName(file.path);
  writeString(header, 0, 100, name);
  writeOctal(header, 100, 8, file.mode & 0o7777);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, file.size);
  writeOctal(header, 136, 12, Math.floor(file.mtime));
  header.fill(" ", 148, 156);
  header.write(file.directory ? "5" : "0", 156);
  writeString(header, 257, 6, "ustar\0");
  writeString(header, 263, 2, "00");
  writeString(header, 345, 155, prefix);
  let sum = 0;
  for (const byte of header) sum += byte;
  writeString(header, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

export function tarPadding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/** The two zero blocks that end an archive. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

function readString(buf: Buffer, at: number, length: number): string {
  const field = buf.subarray(at, at + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString("utf8");
}

function readOctal(buf: Buffer, at: number, length: number): number {
  const text = readString(buf, at, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new BackupError("archive_damaged", "a tar header holds a malformed number");
  return text ? Number.parseInt(text, 8) : 0;
}

function parseHeader(block: Buffer): (TarFileHeader & { type: string }) | null {
  if (block.every((b) => b === 0)) return null;
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : (block[i] as number);
  if (sum !== readOctal(block, 148, 8)) throw new BackupError("archive_damaged", "a tar header's checksum does not match");
  const name = readString(block, 0, 100);
  const prefix = readString(block, 345, 155);
  return {
    path: prefix ? `${prefix}/${name}` : name,
    size: readOctal(block, 124, 12),
    mode: readOctal(block, 100, 8),
    mtime: readOctal(block, 136, 12),
    type: String.fromCharCode(block[156] ?? 0),
  };
}

export interface TarSink {
  write(chunk: Buffer): Promise<void>;
  end(): Promise<void>;
}

/**
 * Reads a tar stream and hands every regular file to `onFile`, which returns where its bytes go,
 * and every folder to `onDirectory`; links and devices are refused: a backup never holds them, so
 * one means the archive is not ours.
 */
export async function extractTar(
  source: AsyncIterable<Buffer>,
  onFile: (file: TarFileHeader) => Promise<TarSink>,
  onDirectory: (path: string) => Promise<void>,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let sink: TarSink | null = null;
  let remaining = 0;
  let padding = 0;
  let ended = false;
  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (ended) break;
      if (sink || remaining > 0) {
        if (pending.length === 0) break;
        const take = Math.min(remaining, pending.length);
        if (take > 0) await sink?.write(pending.subarray(0, take));
        pending = pending.subarray(take);
        remaining -= take;
        if (remaining > 0) break;
        await sink?.end();
        sink = null;
        continue;
      }
      if (padding > 0) {
        const take = Math.min(padding, pending.length);
        pending = pending.subarray(take);
        padding -= take;
        if (padding > 0) break;
        continue;
      }
      if (pending.length < BLOCK) break;
      const header = parseHeader(pending.subarray(0, BLOCK));
      pending = pending.subarray(BLOCK);
      if (!header) {
        ended = true;
        break;
      }
      if (header.type === "5") {
        await onDirectory(header.path.replace(/\/+$/, ""));
        continue;
      }
      if (header.type !== "0" && header.type !== "\0") {
        throw new BackupError("archive_damaged", `the archive holds an entry that is not a regular file: ${header.path}`);
      }
      sink = await onFile(header);
      remaining = header.size;
      padding = tarPadding(header.size).length;
      if (remaining === 0) {
        await sink.end();
        sink = null;
      }
    }
  }
  if (!ended || sink || remaining > 0) throw new BackupError("archive_damaged", "the archive ends before its last entry");
}
