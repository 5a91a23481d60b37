import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { recordRead } from "#app/services/orgs/read-audit.server.ts";
import { BlobNotFoundError, type BlobStore } from "#app/services/storage/blob-store.ts";
import { AppError } from "#app/utils/app-error.ts";
import type { Disposition } from "#app/utils/file-response.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { AUDIO_FORMAT_TYPES, AUDIO_SNIFF_BYTES, sniffAudioFormat } from "./audio-format.ts";
import { type ByteRange, parseByteRange } from "./byte-range.ts";
import { loadVisit, toNumber } from "./visit-rows.server.ts";

export const noAudioToPlay = () => new AppError(404, "no_audio", "This visit has no audio");

/** How the recording is served: decided by the server from its stored bytes. */
export interface ServedAudioType {
  /** A fixed type from AUDIO_FORMAT_TYPES, or application/octet-stream for bytes it does not recognise. */
  contentType: string;
  /** inline for audio an <audio> element plays; unknown bytes are only ever downloaded. */
  disposition: Disposition;
  extension: string;
}

/**
 * The served type comes from the file's first bytes through a fixed table, never from the
 * uploader's label (`audio_content_type`): a label like `audio/wav; x=1, text/html` made browsers
 * run an uploaded "recording" as a page or a script of Murmur's origin. Rows stored before uploads
 * refused such labels are served safely too.
 */
export function servedAudioType(head: Uint8Array): ServedAudioType {
  const format = sniffAudioFormat(head);
  if (!format) return { contentType: "application/octet-stream", disposition: "attachment", extension: "bin" };
  const { type, extension } = AUDIO_FORMAT_TYPES[format];
  return { contentType: type, disposition: "inline", extension };
}

async function readAll(source: Readable): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(Buffer.from(part as Uint8Array));
  return Uint8Array.from(Buffer.concat(parts));
}

/**
 * What remote blobs were found to be, by key. Audio keys name their content's SHA-256
 * (storage/keys.ts), so an entry never goes stale; it spares every seek of a player a second
 * ranged GET for the first bytes.
 */
const remoteTypes = new Map<string, ServedAudioType>();
const REMOTE_TYPES_MAX = 1000;

async function remoteServedType(store: BlobStore, key: string, size: number): Promise<ServedAudioType> {
  const known = remoteTypes.get(key);
  if (known) return known;
  const served = servedAudioType(await readAll(await store.get(key, { start: 0, end: Math.min(size, AUDIO_SNIFF_BYTES) - 1 })));
  if (remoteTypes.size >= REMOTE_TYPES_MAX) remoteTypes.delete(remoteTypes.keys().next().value as string);
  remoteTypes.set(key, served);
  return served;
}

export interface VisitAudioBody extends ServedAudioType {
  /** The download's name without extension: `visit-<id>`. */
  name: string;
  /** The whole recording's size. */
  size: number;
  range: ByteRange;
  /** The requested bytes (null for an unsatisfiable range or when `head`). */
  body: ReadableStream<Uint8Array> | null;
}

/**
 * GET /api/visits/:id/audio/file: the visit's assembled recording (or uploaded file), whole or
 * the one byte range an <audio> element asks for when it seeks. The blob is opened before its
 * size is read, so a concurrent replacement (atomic rename) cannot mix two recordings.
 */
export async function openVisitAudio(
  args: OrgServiceArgs & { orgId: string; visitId: string; store: BlobStore; rangeHeader: string | null; head?: boolean },
): Promise<VisitAudioBody> {
  checkOrgId(args.orgId);
  checkVisitId(args.visitId);
  const visit = await asActor(args, args.orgId, async (trx) => {
    await requireClinicalRole(trx, args.orgId, args.actor.userId);
    const row = await loadVisit(trx, args.orgId, args.visitId);
    // A player asks for many ranges as it seeks; the first (no range, or from byte 0) is the one listen logged.
    const listen = !args.head && (args.rangeHeader === null || /^bytes=0-/.test(args.rangeHeader.trim()));
    if (listen)
      await recordRead(trx, args, { action: "visit.audio_read", entity: "visit", entityId: row.id, patientId: row.patient_id });
    return row;
  });
  if (!visit.audio_key) throw noAudioToPlay();
  const name = `visit-${visit.id}`;
  const local = args.store.localPath(visit.audio_key);
  if (local) {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(local, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw noAudioToPlay();
      throw error;
    }
    let served: ServedAudioType;
    let size: number;
    try {
      size = (await handle.stat()).size;
      const head = new Uint8Array(AUDIO_SNIFF_BYTES);
      const { bytesRead } = await handle.read(head, 0, AUDIO_SNIFF_BYTES, 0);
      served = servedAudioType(head.subarray(0, bytesRead));
    } catch (error) {
      await handle.close();
      throw error;
    }
    const range = parseByteRange(args.rangeHeader, size);
    if (range.kind === "unsatisfiable" || args.head || size === 0) {
      await handle.close();
      return { ...served, name, size, range, body: null };
    }
    const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
    const stream = handle.createReadStream({ start, end, autoClose: true });
    return { ...served, name, size, range, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
  }
  const size = toNumber(visit.audio_bytes) ?? 0;
  const key = visit.audio_key;
  const range = parseByteRange(args.rangeHeader, size);
  let served = servedAudioType(new Uint8Array(0));
  let source: Readable;
  try {
    // The type needs the first bytes: a small ranged read of their own, once per blob.
    if (size > 0) served = await remoteServedType(args.store, key, size);
    if (range.kind === "unsatisfiable" || args.head || size === 0) return { ...served, name, size, range, body: null };
    // The store reads only the asked-for bytes (an S3 ranged GET), so seeking stays cheap.
    source = await args.store.get(key, range.kind === "partial" ? { start: range.start, end: range.end } : undefined);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw noAudioToPlay();
    throw error;
  }
  return { ...served, name, size, range, body: Readable.toWeb(source) as ReadableStream<Uint8Array> };
}
