/**
 * Kysely's view of the tables. Each migration that adds a table adds its interface here.
 * Only tables read through Kysely need to appear.
 */
export interface DB {
  schema_migrations: { name: string; applied_at: Date };
}
