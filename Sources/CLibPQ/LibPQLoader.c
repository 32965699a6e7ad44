// Each libpq function the record store calls, forwarded to libpq loaded with dlopen on first use.
//
// The forwarders carry libpq's own names and prototypes (the compiler checks them against libpq-fe.h),
// so the Swift code calls libpq as if it were linked. They are hidden, so no shared library ever binds
// to them instead of to libpq.
#include "shim.h"

#include <LazyLibrary.h>

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
    X(PQfreemem) \
    X(PQfreeCancel) \
    X(PQgetCancel) \
    X(PQgetResult) \
    X(PQgetisnull) \
    X(PQgetvalue) \
    X(PQisBusy) \
    X(PQnfields) \
    X(PQnotifies) \
    X(PQntuples) \
    X(PQreset) \
    X(PQresultErrorField) \
    X(PQresultErrorMessage) \
    X(PQresultStatus) \
    X(PQsendQueryParams) \
    X(PQsetNoticeProcessor) \
    X(PQsocket) \
    X(PQstatus)

// libpq.so.5 is the soname of Debian's libpq5.
LAZY_LIBRARY_DEFINE(libpq, "libpq.so.5", FUNCTIONS);

const char *CLibPQ_load(void) {
    return LazyLibrary_load(&libpq);
}

LAZY_LIBRARY_FORWARDER int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize) {
    return LAZY_LIBRARY_CALL(libpq, PQcancel)(cancel, errbuf, errbufsize);
}

LAZY_LIBRARY_FORWARDER void PQclear(PGresult *res) {
    LAZY_LIBRARY_CALL(libpq, PQclear)(res);
}

LAZY_LIBRARY_FORWARDER PostgresPollingStatusType PQconnectPoll(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQconnectPoll)(conn);
}

LAZY_LIBRARY_FORWARDER PGconn *PQconnectStartParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    return LAZY_LIBRARY_CALL(libpq, PQconnectStartParams)(keywords, values, expand_dbname);
}

LAZY_LIBRARY_FORWARDER PQconninfoOption *PQconninfo(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQconninfo)(conn);
}

LAZY_LIBRARY_FORWARDER void PQconninfoFree(PQconninfoOption *connOptions) {
    LAZY_LIBRARY_CALL(libpq, PQconninfoFree)(connOptions);
}

LAZY_LIBRARY_FORWARDER int PQconsumeInput(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQconsumeInput)(conn);
}

LAZY_LIBRARY_FORWARDER char *PQerrorMessage(const PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQerrorMessage)(conn);
}

LAZY_LIBRARY_FORWARDER void PQfinish(PGconn *conn) {
    LAZY_LIBRARY_CALL(libpq, PQfinish)(conn);
}

LAZY_LIBRARY_FORWARDER void PQfreeCancel(PGcancel *cancel) {
    LAZY_LIBRARY_CALL(libpq, PQfreeCancel)(cancel);
}

LAZY_LIBRARY_FORWARDER void PQfreemem(void *ptr) {
    LAZY_LIBRARY_CALL(libpq, PQfreemem)(ptr);
}

LAZY_LIBRARY_FORWARDER PGcancel *PQgetCancel(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQgetCancel)(conn);
}

LAZY_LIBRARY_FORWARDER PGresult *PQgetResult(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQgetResult)(conn);
}

LAZY_LIBRARY_FORWARDER int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return LAZY_LIBRARY_CALL(libpq, PQgetisnull)(res, tup_num, field_num);
}

LAZY_LIBRARY_FORWARDER char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return LAZY_LIBRARY_CALL(libpq, PQgetvalue)(res, tup_num, field_num);
}

LAZY_LIBRARY_FORWARDER int PQisBusy(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQisBusy)(conn);
}

LAZY_LIBRARY_FORWARDER PGnotify *PQnotifies(PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQnotifies)(conn);
}

LAZY_LIBRARY_FORWARDER int PQnfields(const PGresult *res) {
    return LAZY_LIBRARY_CALL(libpq, PQnfields)(res);
}

LAZY_LIBRARY_FORWARDER int PQntuples(const PGresult *res) {
    return LAZY_LIBRARY_CALL(libpq, PQntuples)(res);
}

LAZY_LIBRARY_FORWARDER void PQreset(PGconn *conn) {
    LAZY_LIBRARY_CALL(libpq, PQreset)(conn);
}

LAZY_LIBRARY_FORWARDER char *PQresultErrorField(const PGresult *res, int fieldcode) {
    return LAZY_LIBRARY_CALL(libpq, PQresultErrorField)(res, fieldcode);
}

LAZY_LIBRARY_FORWARDER char *PQresultErrorMessage(const PGresult *res) {
    return LAZY_LIBRARY_CALL(libpq, PQresultErrorMessage)(res);
}

LAZY_LIBRARY_FORWARDER ExecStatusType PQresultStatus(const PGresult *res) {
    return LAZY_LIBRARY_CALL(libpq, PQresultStatus)(res);
}

LAZY_LIBRARY_FORWARDER int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
    return LAZY_LIBRARY_CALL(libpq, PQsendQueryParams)(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}

LAZY_LIBRARY_FORWARDER PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return LAZY_LIBRARY_CALL(libpq, PQsetNoticeProcessor)(conn, proc, arg);
}

LAZY_LIBRARY_FORWARDER int PQsocket(const PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQsocket)(conn);
}

LAZY_LIBRARY_FORWARDER ConnStatusType PQstatus(const PGconn *conn) {
    return LAZY_LIBRARY_CALL(libpq, PQstatus)(conn);
}
