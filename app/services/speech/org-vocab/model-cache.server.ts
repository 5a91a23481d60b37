import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { adaptModel } from "./adapt-lm.server.ts";
import type { VocabularyTerm } from "./terms.ts";

/** What the transcription job hands the engine: one organisation's words, as the refresh job stored them. */
export interface OrgVocabulary {
  orgId: string;
  /** Changes whenever the terms do (a hash of them): the cache key's organisation part. */
  version: string;
  terms: readonly VocabularyTerm[];
}

export interface ModelFiles {
  lm: string;
  dict: string;
  name: string;
}

export interface OrgModelCache {
  /** The organisation's adapted copy of `base`, built once per vocabulary version and base model. */
  modelFor(base: ModelFiles, vocabulary: OrgVocabulary): Promise<ModelFiles>;
}

/** Bumped when adapt-lm.server.ts writes different files for the same input, so old copies are rebuilt. */
const ADAPT_FORMAT = 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function vocabularyVersion(terms: readonly VocabularyTerm[]): string {
  return createHash("sha256").update(JSON.stringify(terms)).digest("hex").slice(0, 16);
}

/**
 * Per-organisation model folders under `root` (MURMUR_DATA_DIR/speech/org-models/<org>/<key>/):
 * the key hashes the base model's files (path, size, time), the format and the terms, so a new
 * vocabulary, base model or format gets a new folder and nothing is rebuilt otherwise. A build
 * writes into a temporary folder renamed into place, so a reader never sees half a model; older
 * folders of the organisation are then removed. One build per key at a time in this process.
 */
export function createOrgModelCache(root: string): OrgModelCache {
  const building = new Map<string, Promise<ModelFiles>>();

  async function key(base: ModelFiles, vocabulary: OrgVocabulary): Promise<string> {
    const [lm, dict] = await Promise.all([stat(base.lm), stat(base.dict)]);
    return createHash("sha256")
      .update(JSON.stringify([ADAPT_FORMAT, base.lm, lm.size, lm.mtimeMs, base.dict, dict.size, dict.mtimeMs, vocabulary.terms]))
      .digest("hex")
      .slice(0, 20);
  }

  async function build(base: ModelFiles, vocabulary: OrgVocabulary, orgDir: string, dir: string, files: ModelFiles) {
    await mkdir(orgDir, { recursive: true });
    const temp = join(orgDir, `.build-${randomUUID()}`);
    await mkdir(temp);
    try {
      await adaptModel({
        baseLm: base.lm,
        baseDict: base.dict,
        terms: vocabulary.terms,
        outLm: join(temp, "lm.arpa.gz"),
        outDict: join(temp, "words.dict"),
      });
      await rename(temp, dir).catch(async (error: NodeJS.ErrnoException) => {
        // Another process built the same key meanwhile: its copy is as good as ours.
        if (!existsSync(join(dir, "words.dict"))) throw error;
      });
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
    for (const entry of await readdir(orgDir)) {
      if (entry !== dir.split("/").at(-1) && !entry.startsWith(".build-")) {
        await rm(join(orgDir, entry), { recursive: true, force: true });
      }
    }
    return files;
  }

  return {
    async modelFor(base, vocabulary) {
      // The folder name comes from the organisation id: never let it be a path.
      if (!UUID.test(vocabulary.orgId)) throw new Error("organisation id is not a UUID");
      const orgDir = join(root, vocabulary.orgId.toLowerCase());
      const dir = join(orgDir, await key(base, vocabulary));
      const files = {
        lm: join(dir, "lm.arpa.gz"),
        dict: join(dir, "words.dict"),
        name: `${base.name}+org:${vocabulary.version}`,
      };
      if (existsSync(files.dict) && existsSync(files.lm)) return files;
      const pending = building.get(dir) ?? build(base, vocabulary, orgDir, dir, files).finally(() => building.delete(dir));
      building.set(dir, pending);
      return pending;
    },
  };
}
