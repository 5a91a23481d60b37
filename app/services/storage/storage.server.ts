import type { BlobStore } from "./blob-store.ts";
import { type StorageConfig, storageConfig } from "./config.server.ts";
import { createLocalBlobStore } from "./local-disk.server.ts";
import { createS3BlobStore } from "./s3.server.ts";

const stores = new Map<string, BlobStore>();

/** The configured store for this runtime's env (one per configuration, reused across requests). */
export function blobStore(runtimeEnv: object = {}): BlobStore {
  const config = storageConfig(runtimeEnv);
  const id = JSON.stringify(config);
  let store = stores.get(id);
  if (!store) {
    store = createBlobStore(config);
    stores.set(id, store);
  }
  return store;
}

export function createBlobStore(config: StorageConfig): BlobStore {
  return config.kind === "local" ? createLocalBlobStore(config.root) : createS3BlobStore(config);
}
