import path from "node:path";
import { z } from "zod";

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

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

// Same rule as keys.ts segments, so the prefix cannot smuggle `..` or an empty segment into a key.
const PREFIX_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * The S3_* variables, validated as strings so app/utils/env.server.ts can spread them into the
 * boot-time schema: a bad value stops the server at start rather than at the first upload.
 */
export const StorageEnvShape = {
  /** S3 bucket naming rules (3–63 lower-case letters, digits, dots, hyphens). */
  S3_BUCKET: optional(
    z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a valid bucket name (3–63 of a-z 0-9 . -)"),
  ),
  S3_REGION: optional(z.string().regex(/^[a-z0-9-]{2,40}$/, "must be a region name such as eu-west-3")),
  S3_ENDPOINT: optional(z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as http://127.0.0.1:9000" })),
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  S3_FORCE_PATH_STYLE: optional(z.enum(["true", "false"], { error: "must be true or false" })),
  S3_PREFIX: optional(
    z
      .string()
      .transform((v) => v.replace(/^\/+|\/+$/g, ""))
      .refine((v) => v === "" || v.split("/").every((s) => PREFIX_SEGMENT.test(s)), {
        message: "must be path segments of A-Z a-z 0-9 . _ - separated by /",
      }),
  ),
};

/** Rules that span several S3_* variables; env.server.ts applies them at boot too. */
export function checkStorageEnv(
  env: { S3_BUCKET?: string; S3_ACCESS_KEY_ID?: string; S3_SECRET_ACCESS_KEY?: string },
  ctx: z.RefinementCtx,
): void {
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: "custom",
      path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
      message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (leave both empty for the SDK's default credentials)",
    });
  }
}

export const StorageEnvSchema = z
  .object({ MURMUR_DATA_DIR: optional(z.string()), ...StorageEnvShape })
  .superRefine(checkStorageEnv);

export class StorageConfigError extends Error {}

const KEYS = ["MURMUR_DATA_DIR", ...Object.keys(StorageEnvShape)];

/**
 * Storage settings from the validated runtime env, falling back to process.env for a variable the
 * runtime env lacks (scripts and tests pass partial records). S3 is chosen by S3_BUCKET; local
 * disk under `${MURMUR_DATA_DIR}/blobs` otherwise. Throws StorageConfigError naming the variable.
 */
export function storageConfig(runtimeEnv: object = {}): StorageConfig {
  const env = runtimeEnv as Record<string, unknown>;
  const source = Object.fromEntries(KEYS.map((key) => [key, env[key] ?? process.env[key]]));
  const parsed = StorageEnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new StorageConfigError(`Invalid storage settings:\n${lines.join("\n")}`);
  }
  const s = parsed.data;
  const dataDir = path.resolve(s.MURMUR_DATA_DIR ?? "./data");
  if (!s.S3_BUCKET) return { kind: "local", root: path.join(dataDir, "blobs") };
  return {
    kind: "s3",
    bucket: s.S3_BUCKET,
    region: s.S3_REGION ?? "us-east-1",
    endpoint: s.S3_ENDPOINT ?? null,
    accessKeyId: s.S3_ACCESS_KEY_ID ?? null,
    secretAccessKey: s.S3_SECRET_ACCESS_KEY ?? null,
    forcePathStyle: s.S3_FORCE_PATH_STYLE === "true",
    prefix: s.S3_PREFIX ?? "",
    scratch: path.join(dataDir, "blobs-scratch"),
  };
}
