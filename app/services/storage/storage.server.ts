import type { BlobStore } from "./blob-store.ts";
import { type StorageConfig, storageConfig } from "./config.server.ts";
import { createLocalBlobStore } from "./local-disk.server.ts";

export class StorageUnavailableError extends Error {}

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
  if (config.kind === "local") return createLocalBlobStore(config.root);
  // ADR 8: the S3-compatible store needs @aws-sdk/client-s3, which is not a dependency yet.
  // Refusing beats silently keeping patient audio on local disk when a bucket was asked for.
  throw new StorageUnavailableError(
    "S3_BUCKET is set but this build has no S3-compatible storage driver; unset S3_* to store audio under MURMUR_DATA_DIR/blobs",
  );
}
