// The SQLite API ztprov's record store uses, plus the macros Swift cannot import. libsqlite3 is loaded on
// first use (LibSQLiteLoader.c), not linked: only `batch` and `report` keep records, and every other
// command would map it for nothing.
#ifndef ZTPROV_CSQLITE_SHIM_H
#define ZTPROV_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Loads libsqlite3 if it is not loaded yet. Returns NULL once it is loaded, or why it cannot be (the
/// text stays valid for the life of the process). Call it before the first SQLite function: one called
/// while the library cannot be loaded ends the process.
const char *CSQLite_load(void);

// SQLITE_TRANSIENT is `((sqlite3_destructor_type)-1)`, a cast the importer skips: it tells SQLite to
// copy a bound value before the call returns, so Swift's temporary buffers may go away.
static inline sqlite3_destructor_type CSQLite_transient(void) { return SQLITE_TRANSIENT; }

#endif
