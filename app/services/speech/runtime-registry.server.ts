import type { Runtime } from "#app/runtime/runtime.server.ts";
import { createSpeechRegistry } from "#app/services/speech/config.server.ts";
import type { EngineRegistry } from "#app/services/speech/engine.ts";

const built = new WeakMap<Runtime, EngineRegistry>();

/**
 * The registry the transcription jobs use; a runtime started without jobs (some tests, tools)
 * gets one built from the same validated env, once.
 */
export function speechRegistryOf(runtime: Runtime): EngineRegistry {
  if (runtime.speech) return runtime.speech;
  let registry = built.get(runtime);
  if (!registry) {
    registry = createSpeechRegistry(runtime.env, { dataDir: runtime.env.MURMUR_DATA_DIR });
    built.set(runtime, registry);
  }
  return registry;
}
