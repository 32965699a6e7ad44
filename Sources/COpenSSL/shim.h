// The OpenSSL 3 headers ztprov uses, plus re-exports of what Swift cannot import directly.
#ifndef ZTPROV_COPENSSL_SHIM_H
#define ZTPROV_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

/// `EVP_PKEY_X25519` is a macro chain ending in `NID_X25519`; exported as a constant so Swift sees one name.
static const int COpenSSL_EVP_PKEY_X25519 = EVP_PKEY_X25519;

/// `BN_FLG_CONSTTIME` marks secret exponents so modular exponentiation takes the constant-time path.
static const int COpenSSL_BN_FLG_CONSTTIME = BN_FLG_CONSTTIME;

#endif
