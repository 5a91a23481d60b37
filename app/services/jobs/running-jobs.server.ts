/**
 * The jobs this process is running, by queue: when the process stops before they finish, pg-boss
 * fails them back to their queue with a retry delay (15 s or more), and stopJobs uses this list to
 * make them runnable again at once, so the next process picks them up as soon as it starts.
 */
export class RunningJobs {
  readonly #jobs = new Map<string, string>();

  /** Wraps a pg-boss work handler so its jobs are listed while it runs. */
  track<J extends { id: string }, R>(queue: string, handler: (jobs: J[]) => Promise<R>): (jobs: J[]) => Promise<R> {
    return async (jobs) => {
      for (const job of jobs) this.#jobs.set(job.id, queue);
      try {
        return await handler(jobs);
      } finally {
        for (const job of jobs) this.#jobs.delete(job.id);
      }
    };
  }

  list(): { queue: string; id: string }[] {
    return [...this.#jobs].map(([id, queue]) => ({ queue, id }));
  }

  get size(): number {
    return this.#jobs.size;
  }
}
