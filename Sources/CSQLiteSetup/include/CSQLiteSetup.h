#ifndef CSQLITESETUP_H
#define CSQLITESETUP_H

/// Sets SQLite's process-wide options before its first use: `sqlite3_config` is variadic, which
/// Swift cannot call. Returns 0 when both options took effect (they cannot once SQLite has
/// initialized, which the first connection does).
int stratus_sqlite_configure(void);

#endif
