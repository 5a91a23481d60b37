import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { asActor, checkOrgId, type OrgServiceArgs } from "#app/services/orgs/context.server.ts";
import { BlobNotFoundError, type BlobStore } from "#app/services/storage/blob-store.ts";
import { AppError } from "#app/utils/app-error.ts";
import { checkVisitId, requireClinicalRole } from "./access.server.ts";
import { type ByteRange, parseByteRange } from "./byte-range.ts";
import { loadVisit, toNumber } from "./visit-rows.server.ts";

export const noAudioToPlay = () => new AppError(404, "no_audio", "This visit has no audio");

/** The stored type when it is an audio type, else bytes nobody should interpret (never text/html). */
function playableType(stored: string | null): string {
  return stored && /^audio\/[a-z0-9.+-]{1,100}(;[ -~]{0,100})?$/i.test(stored) ? stored : "application/octet-stream";
}

export interface VisitAudioBody {
  contentType: string;
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
    return loadVisit(trx, args.orgId, args.visitId);
  });
  if (!visit.audio_key) throw noAudioToPlay();
  const contentType = playableType(visit.audio_content_type);
  const local = args.store.localPath(visit.audio_key);
  if (local) {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(local, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw noAudioToPlay();
      throw error;
    }
    const size = (await handle.stat()).size;
    const range = parseByteRange(args.rangeHeader, size);
    if (range.kind === "unsatisfiable" || args.head || size === 0) {
      await handle.close();
      return { contentType, size, range, body: null };
    }
    const [start, end] = range.kind === "partial" ? [range.start, range.end] : [0, size - 1];
    const stream = handle.createReadStream({ start, end, autoClose: true });
    return { contentType, size, range, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
  }
  const size = toNumber(visit.audio_bytes) ?? 0;
  const range = parseByteRange(args.rangeHeader, size);
  if (range.kind === "unsatisfiable" || args.head || size === 0) return { contentType, size, range, body: null };
  let source: Readable;
  try {
    // The store reads only the asked-for bytes (an S3 ranged GET), so seeking stays cheap.
    source = await args.store.get(visit.audio_key, range.kind === "partial" ? { start: range.start, end: range.end } : undefined);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw noAudioToPlay();
    throw error;
  }
  return { contentType, size, range, body: Readable.toWeb(source) as ReadableStream<Uint8Array> };
}
