// The libpq header ztprov's PostgreSQL record store uses.
#ifndef ZTPROV_CLIBPQ_SHIM_H
#define ZTPROV_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
