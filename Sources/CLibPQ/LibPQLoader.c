// Each libpq function the record store calls, forwarded to libpq loaded with dlopen on first use.
//
// The forwarders carry libpq's own names and prototypes (the compiler checks them against libpq-fe.h),
// so the Swift code calls libpq as if it were linked. They are hidden, so no shared library ever binds
// to them instead of to libpq.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define HIDDEN __attribute__((visibility("hidden")))

/// The soname of Debian's libpq5.
static const char library_name[] = "libpq.so.5";

#define FUNCTIONS(X) \
    X(PQcancel) \
    X(PQclear) \
    X(PQconnectPoll) \
    X(PQconnectStartParams) \
    X(PQconninfo) \
    X(PQconninfoFree) \
    X(PQconsumeInput) \
    X(PQerrorMessage) \
    X(PQfinish) \
    X(PQfreeCancel) \
    X(PQgetCancel) \
    X(PQgetResult) \
    X(PQgetisnull) \
    X(PQgetvalue) \
    X(PQisBusy) \
    X(PQnfields) \
    X(PQntuples) \
    X(PQreset) \
    X(PQresultErrorField) \
    X(PQresultErrorMessage) \
    X(PQresultStatus) \
    X(PQsendQueryParams) \
    X(PQsetNoticeProcessor) \
    X(PQsocket) \
    X(PQstatus)

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

const char *CLibPQ_load(void) {
    pthread_once(&load_once, load);
    return load_failure[0] == '\0' ? NULL : load_failure;
}

static inline __typeof__(functions) *library(void) {
    const char *failure = CLibPQ_load();
    if (failure != NULL) {
        fprintf(stderr, "ztprov: cannot use libpq: %s\n", failure);
        abort();
    }
    return &functions;
}

HIDDEN int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize) {
    return library()->PQcancel(cancel, errbuf, errbufsize);
}

HIDDEN void PQclear(PGresult *res) {
    library()->PQclear(res);
}

HIDDEN PostgresPollingStatusType PQconnectPoll(PGconn *conn) {
    return library()->PQconnectPoll(conn);
}

HIDDEN PGconn *PQconnectStartParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return library()->PQconnectStartParams(keywords, values, expand_dbname);
}

HIDDEN PQconninfoOption *PQconninfo(PGconn *conn) {
    return library()->PQconninfo(conn);
}

HIDDEN void PQconninfoFree(PQconninfoOption *connOptions) {
    library()->PQconninfoFree(connOptions);
}

HIDDEN int PQconsumeInput(PGconn *conn) {
    return library()->PQconsumeInput(conn);
}

HIDDEN char *PQerrorMessage(const PGconn *conn) {
    return library()->PQerrorMessage(conn);
}

HIDDEN void PQfinish(PGconn *conn) {
    library()->PQfinish(conn);
}

HIDDEN void PQfreeCancel(PGcancel *cancel) {
    library()->PQfreeCancel(cancel);
}

HIDDEN PGcancel *PQgetCancel(PGconn *conn) {
    return library()->PQgetCancel(conn);
}

HIDDEN PGresult *PQgetResult(PGconn *conn) {
    return library()->PQgetResult(conn);
}

HIDDEN int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return library()->PQgetisnull(res, tup_num, field_num);
}

HIDDEN char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return library()->PQgetvalue(res, tup_num, field_num);
}

HIDDEN int PQisBusy(PGconn *conn) {
    return library()->PQisBusy(conn);
}

HIDDEN int PQnfields(const PGresult *res) {
    return library()->PQnfields(res);
}

HIDDEN int PQntuples(const PGresult *res) {
    return library()->PQntuples(res);
}

HIDDEN void PQreset(PGconn *conn) {
    library()->PQreset(conn);
}

HIDDEN char *PQresultErrorField(const PGresult *res, int fieldcode) {
    return library()->PQresultErrorField(res, fieldcode);
}

HIDDEN char *PQresultErrorMessage(const PGresult *res) {
    return library()->PQresultErrorMessage(res);
}

HIDDEN ExecStatusType PQresultStatus(const PGresult *res) {
    return library()->PQresultStatus(res);
}

HIDDEN int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
    return library()->PQsendQueryParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}

HIDDEN PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return library()->PQsetNoticeProcessor(conn, proc, arg);
}

HIDDEN int PQsocket(const PGconn *conn) {
    return library()->PQsocket(conn);
}

HIDDEN ConnStatusType PQstatus(const PGconn *conn) {
    return library()->PQstatus(conn);
}
