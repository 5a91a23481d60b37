import { errorStore } from "./error-store.ts";

/** SPEC §8: global errors and unhandled rejections are logged and reported. */
export function installGlobalErrorHandlers(target: Window = window): void {
  target.addEventListener("error", (event) => {
    console.error(event.error ?? event.message);
    errorStore.add({ message: String(event.message || "Script error"), type: "javascript", severity: "high" }, event.error);
  });
  target.addEventListener("unhandledrejection", (event) => {
    const reason = event.reason as unknown;
    console.error(reason);
    const message = reason instanceof Error ? reason.message : String(reason);
    errorStore.add({ message, type: "unhandled_rejection", severity: "high" }, reason);
  });
}
