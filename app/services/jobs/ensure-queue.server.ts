import type { PgBoss } from "pg-boss";

/** Creates a queue, or brings an existing one's options up to date (its policy is fixed at creation). */
export async function ensureQueue(
  boss: PgBoss,
  name: string,
  options: Parameters<PgBoss["createQueue"]>[1] & { policy: string },
): Promise<void> {
  if (!(await boss.getQueue(name))) {
    await boss.createQueue(name, options);
    return;
  }
  const { policy: _policy, ...rest } = options;
  await boss.updateQueue(name, rest);
}
