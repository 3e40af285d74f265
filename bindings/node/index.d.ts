/**
 * The absolute path of the librecall0 packaged for this platform
 * (`lib/<process.platform>-<process.arch>/`). Throws an Error naming the platform when
 * the package holds none for it.
 */
export function getLoadablePath(): string;

/**
 * Loads librecall0 into a connection: `db.loadExtension(getLoadablePath())`. Works
 * with better-sqlite3 and any driver with a `loadExtension(path)` method; throws a
 * TypeError when `db` has none.
 */
export function load(db: { loadExtension(path: string): unknown }): void;

/**
 * Every named parameter of `sql` (`:name`, `@name` or `$name`, as SQLite reads them:
 * not inside strings or comments), `null` unless `values` gives it: better-sqlite3
 * wants each one bound, and the files of `sql/` read NULL as the default. Throws an
 * Error naming a key of `values` that the SQL has no parameter for.
 */
export function parameters(
  sql: string,
  values?: Record<string, unknown>
): Record<string, unknown>;
