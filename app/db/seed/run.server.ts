import type { Database } from "../database.server.ts";
import { activitySeeder } from "./activity.server.ts";
import { organizationsSeeder } from "./organizations.server.ts";
import { visitsSeeder } from "./visits.server.ts";

/**
 * A seeder loads demo data for one domain and must be idempotent (safe to run twice).
 * Domains register theirs here as their tables arrive (accounts, organisations, visits…).
 */
export interface Seeder {
  name: string;
  run(db: Database): Promise<string>;
}

export const seeders: Seeder[] = [organizationsSeeder(), visitsSeeder(), activitySeeder()];

export async function runSeeders(db: Database, list: Seeder[] = seeders): Promise<string[]> {
  const lines: string[] = [];
  for (const seeder of list) lines.push(`${seeder.name}: ${await seeder.run(db)}`);
  return lines;
}
