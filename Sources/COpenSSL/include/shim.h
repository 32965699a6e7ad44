// The OpenSSL 3 headers ztprov uses, plus re-exports of what Swift cannot import directly. libcrypto is
// linked; libssl, which only an `https://` SC URL needs, is loaded on first use (LibSSLLoader.c).
#ifndef ZTPROV_COPENSSL_SHIM_H
#define ZTPROV_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

/// Loads libssl if it is not loaded yet. Returns NULL once it is loaded, or why it cannot be (the text
/// stays valid for the life of the process). Call it before the first libssl function (`SSL_*`, `TLS_*`):
/// one called while the library cannot be loaded ends the process.
const char *COpenSSL_loadSSL(void);

/// `EVP_PKEY_X25519` is a macro chain ending in `NID_X25519`; exported as a constant so Swift sees one name.
static const int COpenSSL_EVP_PKEY_X25519 = EVP_PKEY_X25519;

/// `BN_FLG_CONSTTIME` marks secret exponents so modular exponentiation takes the constant-time path.
static const int COpenSSL_BN_FLG_CONSTTIME = BN_FLG_CONSTTIME;

/// `SSL_OP_IGNORE_UNEXPECTED_EOF` is built by a macro; an end of stream then reads as a closed session.
static const uint64_t COpenSSL_SSL_OP_IGNORE_UNEXPECTED_EOF = SSL_OP_IGNORE_UNEXPECTED_EOF;

/// `SSL_CTX_set_min_proto_version` is a macro over `SSL_CTX_ctrl`.
static inline int COpenSSL_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

/// `SSL_set_tlsext_host_name` (the SNI name) is a macro over `SSL_ctrl`.
static inline int COpenSSL_SSL_set_tlsext_host_name(SSL *connection, const char *name) {
    return (int)SSL_set_tlsext_host_name(connection, name);
}

/// `BIO_set_mem_eof_return` is a macro over `BIO_ctrl`; 0 makes an empty memory BIO read as end of stream.
static inline void COpenSSL_BIO_set_mem_eof_return(BIO *bio, int value) {
    (void)BIO_set_mem_eof_return(bio, value);
}

#endif
