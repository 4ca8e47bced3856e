// The C side of ParleySQLite: the system <sqlite3.h>, plus typed wrappers for what Swift cannot import.
// Only the ParleySQLite module imports this module.
#ifndef PARLEY_CSQLITE_SHIM_H
#define PARLEY_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift cannot import. Passing it
/// to `sqlite3_bind_text64` / `sqlite3_bind_blob64` makes SQLite copy the bytes before the call returns,
/// so Swift may release its buffer right after.
static inline sqlite3_destructor_type parley_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Typed wrapper around the variadic `sqlite3_db_config` for the options that take an `int` (1 on,
/// 0 off, -1 leave as is) and report the resulting setting through an `int *`
/// (`SQLITE_DBCONFIG_DEFENSIVE`, `SQLITE_DBCONFIG_DQS_DML`, `SQLITE_DBCONFIG_DQS_DDL`, ...).
/// Returns an SQLite result code.
static inline int parley_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif /* PARLEY_CSQLITE_SHIM_H */
