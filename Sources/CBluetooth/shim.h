// The kernel HCI socket interface through libbluetooth's headers (no libbluetooth function: the
// headers only), plus what Swift cannot import directly.
#ifndef ZTPROV_CBLUETOOTH_SHIM_H
#define ZTPROV_CBLUETOOTH_SHIM_H

#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>

// The request codes are `_IOR(...)` expressions, which the importer skips.
static const unsigned long CBluetooth_HCIGETDEVLIST = HCIGETDEVLIST;
static const unsigned long CBluetooth_HCIGETDEVINFO = HCIGETDEVINFO;

// ioctl(2) is variadic and therefore unavailable in Swift; this is the one-pointer form HCI uses.
static inline int CBluetooth_ioctl(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

#endif
