import type { RouterContextProvider } from "react-router";
import { runtimeContext } from "#app/runtime/context.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { blobStore } from "#app/services/storage/storage.server.ts";
import { visitErrors } from "#app/services/visits/errors.server.ts";
import { MAX_AUDIO_FILE_BYTES, uploadAudioFile } from "#app/services/visits/upload.server.ts";
import { createVisit, deleteVisit } from "#app/services/visits/visits.server.ts";

/**
 * The patient page's "Upload a recording" (issue 29): a new visit of this patient with the
 * patient's consent, then the file through the same upload service as POST /api/visits/:id/audio
 * (format sniffed, size capped, transcription queued). A refused file leaves no empty visit.
 */
export async function uploadRecordingFromPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: { patientId: string; language: "en" | "fr" | "es"; templateId?: string; file: File },
): Promise<{ visitId: string }> {
  if (input.file.size > MAX_AUDIO_FILE_BYTES) throw visitErrors.fileTooLarge(MAX_AUDIO_FILE_BYTES);
  const args = orgPageArgs(context, request);
  const store = blobStore(context.get(runtimeContext).env);
  const { id: visitId } = await createVisit({
    ...args,
    patientId: input.patientId,
    title: "",
    language: input.language,
    templateId: input.templateId ?? null,
    consent: true,
  });
  try {
    await uploadAudioFile({
      ...args,
      visitId,
      store,
      // A browser labels some audio as video/webm or not at all; the service keeps the label for the
      // record only and decides the format from the bytes.
      contentType: input.file.type.startsWith("audio/") ? input.file.type : "audio/x-unlabelled",
      contentLength: input.file.size,
      body: input.file.stream(),
    });
  } catch (error) {
    await deleteVisit({ ...args, visitId, store });
    throw error;
  }
  return { visitId };
}
