// The libpq API ztprov's PostgreSQL record store uses. libpq is loaded on first use (LibPQLoader.c), not
// linked: it brings Kerberos, LDAP and SASL libraries with it that no other command needs.
#ifndef ZTPROV_CLIBPQ_SHIM_H
#define ZTPROV_CLIBPQ_SHIM_H

#include <postgresql/libpq-fe.h>

/// Loads libpq if it is not loaded yet. Returns NULL once it is loaded, or why it cannot be (the text
/// stays valid for the life of the process). Call it before the first libpq function: a libpq function
/// called while the library cannot be loaded ends the process.
const char *CLibPQ_load(void);

#endif
