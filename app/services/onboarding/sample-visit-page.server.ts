import type { RouterContextProvider } from "react-router";
import { localeFromPath } from "#app/i18n/config.ts";
import { resources } from "#app/i18n/resources.server.ts";
import { runtimeContext } from "#app/runtime/context.ts";
import { orgPageArgs } from "#app/services/org-context/page-args.server.ts";
import { blobStore } from "#app/services/storage/storage.server.ts";
import { pageUrl } from "#app/utils/page-url.ts";
import { startSampleVisit } from "./sample-visit.server.ts";

/**
 * The dashboard's "Try a sample visit" button: the sample patient and the visit are named in the
 * page's language (what the user reads in their lists); the audio stays the English sample.
 */
export function startSampleVisitFromPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
): Promise<{ visitId: string; patientId: string }> {
  const names = resources[localeFromPath(pageUrl(request).pathname)].app.firstRun.sample;
  return startSampleVisit({
    ...orgPageArgs(context, request),
    store: blobStore(context.get(runtimeContext).env),
    patientName: names.patientName,
    title: names.visitTitle,
  });
}
