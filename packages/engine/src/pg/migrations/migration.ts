/** One schema version of the PostgreSQL store (listed in order in `index.ts`). */
export interface Migration {
  version: number;
  /** Short and unique, for `schema_migrations.name`. */
  name: string;
  sql: string;
}
