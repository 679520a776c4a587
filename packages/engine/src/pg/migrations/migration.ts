/** One schema version (its own module so that migrations need not import the list that holds them). */
export interface Migration {
  version: number;
  /** Short and unique, for `schema_migrations.name`. */
  name: string;
  sql: string;
}
