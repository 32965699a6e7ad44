// The SQLite header ztprov's record store uses, plus the macros Swift cannot import.
#ifndef ZTPROV_CSQLITE_SHIM_H
#define ZTPROV_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is `((sqlite3_destructor_type)-1)`, a cast the importer skips: it tells SQLite to
// copy a bound value before the call returns, so Swift's temporary buffers may go away.
static inline sqlite3_destructor_type CSQLite_transient(void) { return SQLITE_TRANSIENT; }

#endif
