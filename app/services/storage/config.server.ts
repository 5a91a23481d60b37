import path from "node:path";

/** Where audio blobs live (issue 5 "Storage", ADR 8). */
export type StorageConfig =
  | { kind: "local"; root: string }
  | {
      kind: "s3";
      bucket: string;
      region: string;
      endpoint: string | null;
      accessKeyId: string | null;
      secretAccessKey: string | null;
      forcePathStyle: boolean;
      prefix: string;
      /** Local scratch space for uploads on their way to the bucket and for assembly. */
      scratch: string;
    };

const KEYS = [
  "MURMUR_DATA_DIR",
  "S3_BUCKET",
  "S3_REGION",
  "S3_ENDPOINT",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_FORCE_PATH_STYLE",
  "S3_PREFIX",
] as const;
type Key = (typeof KEYS)[number];

/**
 * Storage settings from the validated runtime env, falling back to process.env (EnvSchema does
 * not declare the S3_* variables yet). S3 is chosen by S3_BUCKET; local disk under
 * `${MURMUR_DATA_DIR}/blobs` otherwise.
 */
export function storageConfig(runtimeEnv: object = {}): StorageConfig {
  const env = runtimeEnv as Partial<Record<Key, unknown>>;
  const read = (key: Key): string | null => {
    const value = env[key] ?? process.env[key];
    return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
  };
  const dataDir = path.resolve(read("MURMUR_DATA_DIR") ?? "./data");
  const bucket = read("S3_BUCKET");
  if (!bucket) return { kind: "local", root: path.join(dataDir, "blobs") };
  return {
    kind: "s3",
    bucket,
    region: read("S3_REGION") ?? "us-east-1",
    endpoint: read("S3_ENDPOINT"),
    accessKeyId: read("S3_ACCESS_KEY_ID"),
    secretAccessKey: read("S3_SECRET_ACCESS_KEY"),
    forcePathStyle: read("S3_FORCE_PATH_STYLE") === "true",
    prefix: (read("S3_PREFIX") ?? "").replace(/^\/+|\/+$/g, ""),
    scratch: path.join(dataDir, "blobs-scratch"),
  };
}
