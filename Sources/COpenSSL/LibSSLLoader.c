// Each libssl function the TLS client calls, forwarded to libssl loaded with dlopen on first use. libcrypto,
// which every command uses (BluFi's and protocomm's key agreement, ciphers and digests), stays linked.
//
// The forwarders carry libssl's own names and prototypes (the compiler checks them against openssl/ssl.h),
// so the Swift code calls libssl as if it were linked. They are hidden, so no shared library ever binds
// to them instead of to libssl.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define HIDDEN __attribute__((visibility("hidden")))

/// The soname of Debian's libssl3.
static const char library_name[] = "libssl.so.3";

#define FUNCTIONS(X) \
    X(SSL_CTX_ctrl) \
    X(SSL_CTX_free) \
    X(SSL_CTX_load_verify_locations) \
    X(SSL_CTX_new) \
    X(SSL_CTX_set_default_verify_paths) \
    X(SSL_CTX_set_options) \
    X(SSL_CTX_set_verify) \
    X(SSL_ctrl) \
    X(SSL_do_handshake) \
    X(SSL_free) \
    X(SSL_get_error) \
    X(SSL_get_verify_result) \
    X(SSL_new) \
    X(SSL_read) \
    X(SSL_set1_host) \
    X(SSL_set_bio) \
    X(SSL_set_connect_state) \
    X(SSL_write) \
    X(TLS_client_method)

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

const char *COpenSSL_loadSSL(void) {
    pthread_once(&load_once, load);
    return load_failure[0] == '\0' ? NULL : load_failure;
}

static inline __typeof__(functions) *library(void) {
    const char *failure = COpenSSL_loadSSL();
    if (failure != NULL) {
        fprintf(stderr, "ztprov: cannot use libssl: %s\n", failure);
        abort();
    }
    return &functions;
}

HIDDEN long SSL_CTX_ctrl(SSL_CTX *context, int command, long number, void *argument) {
    return library()->SSL_CTX_ctrl(context, command, number, argument);
}

HIDDEN void SSL_CTX_free(SSL_CTX *context) {
    library()->SSL_CTX_free(context);
}

HIDDEN int SSL_CTX_load_verify_locations(SSL_CTX *context, const char *file, const char *directory) {
    return library()->SSL_CTX_load_verify_locations(context, file, directory);
}

HIDDEN SSL_CTX *SSL_CTX_new(const SSL_METHOD *method) {
    return library()->SSL_CTX_new(method);
}

HIDDEN int SSL_CTX_set_default_verify_paths(SSL_CTX *context) {
    return library()->SSL_CTX_set_default_verify_paths(context);
}

HIDDEN uint64_t SSL_CTX_set_options(SSL_CTX *context, uint64_t options) {
    return library()->SSL_CTX_set_options(context, options);
}

HIDDEN void SSL_CTX_set_verify(SSL_CTX *context, int mode, SSL_verify_cb callback) {
    library()->SSL_CTX_set_verify(context, mode, callback);
}

HIDDEN long SSL_ctrl(SSL *connection, int command, long number, void *argument) {
    return library()->SSL_ctrl(connection, command, number, argument);
}

HIDDEN int SSL_do_handshake(SSL *connection) {
    return library()->SSL_do_handshake(connection);
}

HIDDEN void SSL_free(SSL *connection) {
    library()->SSL_free(connection);
}

HIDDEN int SSL_get_error(const SSL *connection, int result) {
    return library()->SSL_get_error(connection, result);
}

HIDDEN long SSL_get_verify_result(const SSL *connection) {
    return library()->SSL_get_verify_result(connection);
}

HIDDEN SSL *SSL_new(SSL_CTX *context) {
    return library()->SSL_new(context);
}

HIDDEN int SSL_read(SSL *connection, void *buffer, int count) {
    return library()->SSL_read(connection, buffer, count);
}

HIDDEN int SSL_set1_host(SSL *connection, const char *host) {
    return library()->SSL_set1_host(connection, host);
}

HIDDEN void SSL_set_bio(SSL *connection, BIO *incoming, BIO *outgoing) {
    library()->SSL_set_bio(connection, incoming, outgoing);
}

HIDDEN void SSL_set_connect_state(SSL *connection) {
    library()->SSL_set_connect_state(connection);
}

HIDDEN int SSL_write(SSL *connection, const void *buffer, int count) {
    return library()->SSL_write(connection, buffer, count);
}

HIDDEN const SSL_METHOD *TLS_client_method(void) {
    return library()->TLS_client_method();
}
