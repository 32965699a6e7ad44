// Each libssl function the TLS client calls, forwarded to libssl loaded with dlopen on first use. libcrypto,
// which every command uses (BluFi's and protocomm's key agreement, ciphers and digests), stays linked.
//
// The forwarders carry libssl's own names and prototypes (the compiler checks them against openssl/ssl.h),
// so the Swift code calls libssl as if it were linked. They are hidden, so no shared library ever binds
// to them instead of to libssl.
#include "shim.h"

#include <LazyLibrary.h>

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

// libssl.so.3 is the soname of Debian's libssl3.
LAZY_LIBRARY_DEFINE(libssl, "libssl.so.3", FUNCTIONS);

const char *COpenSSL_loadSSL(void) {
    return LazyLibrary_load(&libssl);
}

LAZY_LIBRARY_FORWARDER long SSL_CTX_ctrl(SSL_CTX *context, int command, long number, void *argument) {
    return LAZY_LIBRARY_CALL(libssl, SSL_CTX_ctrl)(context, command, number, argument);
}

LAZY_LIBRARY_FORWARDER void SSL_CTX_free(SSL_CTX *context) {
    LAZY_LIBRARY_CALL(libssl, SSL_CTX_free)(context);
}

LAZY_LIBRARY_FORWARDER int SSL_CTX_load_verify_locations(SSL_CTX *context, const char *file, const char *directory) {
    return LAZY_LIBRARY_CALL(libssl, SSL_CTX_load_verify_locations)(context, file, directory);
}

LAZY_LIBRARY_FORWARDER SSL_CTX *SSL_CTX_new(const SSL_METHOD *method) {
    return LAZY_LIBRARY_CALL(libssl, SSL_CTX_new)(method);
}

LAZY_LIBRARY_FORWARDER int SSL_CTX_set_default_verify_paths(SSL_CTX *context) {
    return LAZY_LIBRARY_CALL(libssl, SSL_CTX_set_default_verify_paths)(context);
}

LAZY_LIBRARY_FORWARDER uint64_t SSL_CTX_set_options(SSL_CTX *context, uint64_t options) {
    return LAZY_LIBRARY_CALL(libssl, SSL_CTX_set_options)(context, options);
}

LAZY_LIBRARY_FORWARDER void SSL_CTX_set_verify(SSL_CTX *context, int mode, SSL_verify_cb callback) {
    LAZY_LIBRARY_CALL(libssl, SSL_CTX_set_verify)(context, mode, callback);
}

LAZY_LIBRARY_FORWARDER long SSL_ctrl(SSL *connection, int command, long number, void *argument) {
    return LAZY_LIBRARY_CALL(libssl, SSL_ctrl)(connection, command, number, argument);
}

LAZY_LIBRARY_FORWARDER int SSL_do_handshake(SSL *connection) {
    return LAZY_LIBRARY_CALL(libssl, SSL_do_handshake)(connection);
}

LAZY_LIBRARY_FORWARDER void SSL_free(SSL *connection) {
    LAZY_LIBRARY_CALL(libssl, SSL_free)(connection);
}

LAZY_LIBRARY_FORWARDER int SSL_get_error(const SSL *connection, int result) {
    return LAZY_LIBRARY_CALL(libssl, SSL_get_error)(connection, result);
}

LAZY_LIBRARY_FORWARDER long SSL_get_verify_result(const SSL *connection) {
    return LAZY_LIBRARY_CALL(libssl, SSL_get_verify_result)(connection);
}

LAZY_LIBRARY_FORWARDER SSL *SSL_new(SSL_CTX *context) {
    return LAZY_LIBRARY_CALL(libssl, SSL_new)(context);
}

LAZY_LIBRARY_FORWARDER int SSL_read(SSL *connection, void *buffer, int count) {
    return LAZY_LIBRARY_CALL(libssl, SSL_read)(connection, buffer, count);
}

LAZY_LIBRARY_FORWARDER int SSL_set1_host(SSL *connection, const char *host) {
    return LAZY_LIBRARY_CALL(libssl, SSL_set1_host)(connection, host);
}

LAZY_LIBRARY_FORWARDER void SSL_set_bio(SSL *connection, BIO *incoming, BIO *outgoing) {
    LAZY_LIBRARY_CALL(libssl, SSL_set_bio)(connection, incoming, outgoing);
}

LAZY_LIBRARY_FORWARDER void SSL_set_connect_state(SSL *connection) {
    LAZY_LIBRARY_CALL(libssl, SSL_set_connect_state)(connection);
}

LAZY_LIBRARY_FORWARDER int SSL_write(SSL *connection, const void *buffer, int count) {
    return LAZY_LIBRARY_CALL(libssl, SSL_write)(connection, buffer, count);
}

LAZY_LIBRARY_FORWARDER const SSL_METHOD *TLS_client_method(void) {
    return LAZY_LIBRARY_CALL(libssl, TLS_client_method)();
}
