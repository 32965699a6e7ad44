// Each SQLite function the record store calls, forwarded to libsqlite3 loaded with dlopen on first use.
//
// The forwarders carry SQLite's own names and prototypes (the compiler checks them against sqlite3.h),
// so the Swift code calls SQLite as if it were linked. They are hidden, so no shared library ever binds
// to them instead of to libsqlite3.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define HIDDEN __attribute__((visibility("hidden")))

/// The soname of Debian's libsqlite3-0.
static const char library_name[] = "libsqlite3.so.0";

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

static struct {
#define POINTER(name) __typeof__(name) *name;
    FUNCTIONS(POINTER)
#undef POINTER
} functions;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_failure[512];

static void load(void) {
    void *handle = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(load_failure, sizeof load_failure, "%s", dlerror());
        return;
    }
#define RESOLVE(name)                                                                                  \
    if ((functions.name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) {                         \
        snprintf(load_failure, sizeof load_failure, "%s has no function %s", library_name, #name);     \
        return;                                                                                        \
    }
    FUNCTIONS(RESOLVE)
#undef RESOLVE
}

const char *CSQLite_load(void) {
    pthread_once(&load_once, load);
    return load_failure[0] == '\0' ? NULL : load_failure;
}

static inline __typeof__(functions) *library(void) {
    const char *failure = CSQLite_load();
    if (failure != NULL) {
        fprintf(stderr, "ztprov: cannot use libsqlite3: %s\n", failure);
        abort();
    }
    return &functions;
}

HIDDEN int sqlite3_bind_int64(sqlite3_stmt *statement, int index, sqlite3_int64 value) {
    return library()->sqlite3_bind_int64(statement, index, value);
}

HIDDEN int sqlite3_bind_null(sqlite3_stmt *statement, int index) {
    return library()->sqlite3_bind_null(statement, index);
}

HIDDEN int sqlite3_bind_text(sqlite3_stmt *statement, int index, const char *text, int length, void (*destructor)(void *)) {
    return library()->sqlite3_bind_text(statement, index, text, length, destructor);
}

HIDDEN int sqlite3_busy_handler(sqlite3 *db, int (*handler)(void *, int), void *argument) {
    return library()->sqlite3_busy_handler(db, handler, argument);
}

HIDDEN int sqlite3_close_v2(sqlite3 *db) {
    return library()->sqlite3_close_v2(db);
}

HIDDEN int sqlite3_column_count(sqlite3_stmt *statement) {
    return library()->sqlite3_column_count(statement);
}

HIDDEN sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *statement, int column) {
    return library()->sqlite3_column_int64(statement, column);
}

HIDDEN const unsigned char *sqlite3_column_text(sqlite3_stmt *statement, int column) {
    return library()->sqlite3_column_text(statement, column);
}

HIDDEN int sqlite3_column_type(sqlite3_stmt *statement, int column) {
    return library()->sqlite3_column_type(statement, column);
}

HIDDEN const char *sqlite3_errmsg(sqlite3 *db) {
    return library()->sqlite3_errmsg(db);
}

HIDDEN const char *sqlite3_errstr(int status) {
    return library()->sqlite3_errstr(status);
}

HIDDEN int sqlite3_extended_result_codes(sqlite3 *db, int onoff) {
    return library()->sqlite3_extended_result_codes(db, onoff);
}

HIDDEN int sqlite3_finalize(sqlite3_stmt *statement) {
    return library()->sqlite3_finalize(statement);
}

HIDDEN int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs) {
    return library()->sqlite3_open_v2(filename, db, flags, vfs);
}

HIDDEN int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int length, sqlite3_stmt **statement, const char **tail) {
    return library()->sqlite3_prepare_v2(db, sql, length, statement, tail);
}

HIDDEN int sqlite3_step(sqlite3_stmt *statement) {
    return library()->sqlite3_step(statement);
}
