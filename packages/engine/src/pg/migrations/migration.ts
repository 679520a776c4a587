/** One schema version: applied once, in order, never edited once released. */
export interface Migration {
  version: number;
  /** Short and unique, for `schema_migrations.name`. */
  name: string;
  sql: string;
}
