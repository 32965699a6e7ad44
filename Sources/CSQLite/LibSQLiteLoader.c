// Each SQLite function the record store calls, forwarded to libsqlite3 loaded with dlopen on first use.
//
// The forwarders carry SQLite's own names and prototypes (the compiler checks them against sqlite3.h),
// so the Swift code calls SQLite as if it were linked. They are hidden, so no shared library ever binds
// to them instead of to libsqlite3.
#include "shim.h"

#include <LazyLibrary.h>

#define FUNCTIONS(X) \
    X(sqlite3_bind_int64) \
    X(sqlite3_bind_null) \
    X(sqlite3_bind_text) \
    X(sqlite3_busy_handler) \
    X(sqlite3_close_v2) \
    X(sqlite3_column_count) \
    X(sqlite3_column_int64) \
    X(sqlite3_column_text) \
    X(sqlite3_column_type) \
    X(sqlite3_errmsg) \
    X(sqlite3_errstr) \
    X(sqlite3_extended_result_codes) \
    X(sqlite3_finalize) \
    X(sqlite3_open_v2) \
    X(sqlite3_prepare_v2) \
    X(sqlite3_step)

// libsqlite3.so.0 is the soname of Debian's libsqlite3-0.
LAZY_LIBRARY_DEFINE(libsqlite3, "libsqlite3.so.0", FUNCTIONS);

const char *CSQLite_load(void) {
    return LazyLibrary_load(&libsqlite3);
}

LAZY_LIBRARY_FORWARDER int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_bind_int64)(statement, index, value);
}

LAZY_LIBRARY_FORWARDER int sqlite3_bind_null(sqlite3_stmt *statement, int index) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_bind_null)(statement, index);
}

LAZY_LIBRARY_FORWARDER int sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length, void (*destructor)(void *)) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_bind_text)(statement, index, text, length, destructor);
}

LAZY_LIBRARY_FORWARDER int sqlite3_busy_handler(sqlite3 *db, int (*handler)(void *, int), void *argument) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_busy_handler)(db, handler, argument);
}

LAZY_LIBRARY_FORWARDER int sqlite3_close_v2(sqlite3 *db) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_close_v2)(db);
}

LAZY_LIBRARY_FORWARDER int sqlite3_column_count(sqlite3_stmt *statement) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_column_count)(statement);
}

LAZY_LIBRARY_FORWARDER sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_column_int64)(statement, column);
}

LAZY_LIBRARY_FORWARDER const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_column_text)(statement, column);
}

LAZY_LIBRARY_FORWARDER int sqlite3_column_type(sqlite3_stmt *statement, int column) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_column_type)(statement, column);
}

LAZY_LIBRARY_FORWARDER const char *sqlite3_errmsg(sqlite3 *db) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_errmsg)(db);
}

LAZY_LIBRARY_FORWARDER const char *sqlite3_errstr(int status) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_errstr)(status);
}

LAZY_LIBRARY_FORWARDER int sqlite3_extended_result_codes(sqlite3 *db, int onoff) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_extended_result_codes)(db, onoff);
}

LAZY_LIBRARY_FORWARDER int sqlite3_finalize(sqlite3_stmt *statement) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_finalize)(statement);
}

LAZY_LIBRARY_FORWARDER int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_open_v2)(filename, db, flags, vfs);
}

LAZY_LIBRARY_FORWARDER int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int length, sqlite3_stmt **statement, const char **tail) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_prepare_v2)(db, sql, length, statement, tail);
}

LAZY_LIBRARY_FORWARDER int sqlite3_step(sqlite3_stmt *statement) {
    return LAZY_LIBRARY_CALL(libsqlite3, sqlite3_step)(statement);
}
