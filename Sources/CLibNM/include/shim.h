// libnm (with GLib, GObject and GIO underneath), plus inline stand-ins for the macros Swift cannot import.
// libnm is loaded on first use (LibNMLoader.c), not linked: only `softap`, `doctor` and `batch` talk to
// NetworkManager, and GLib, GObject and GIO come with it.
#ifndef ZTPROV_CLIBNM_SHIM_H
#define ZTPROV_CLIBNM_SHIM_H

#include <NetworkManager.h>

/// Loads libnm if it is not loaded yet. Returns NULL once it is loaded, or why it cannot be (the text
/// stays valid for the life of the process). Call it before the first libnm or GLib function: one called
/// while the library cannot be loaded ends the process.
const char *CLibNM_load(void);

/// `g_signal_connect` is a macro over `g_signal_connect_data`; this keeps the call sites short.
static inline gulong CLibNM_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                           gpointer data, GClosureNotify destroy_data) {
    return g_signal_connect_data(instance, signal, handler, data, destroy_data, (GConnectFlags)0);
}

/// `G_VARIANT_TYPE("…")` is a cast macro; a type string such as "a{sv}" becomes a `GVariantType`.
static inline const GVariantType *CLibNM_variant_type(const gchar *type_string) {
    return (const GVariantType *)type_string;
}

/// `NM_IS_DEVICE_WIFI` is a type-check macro; Wi-Fi calls on another device kind would abort in libnm.
static inline gboolean CLibNM_is_device_wifi(gpointer object) {
    return NM_IS_DEVICE_WIFI(object);
}

/// `NM_IS_DEVICE_ETHERNET` likewise; it holds for veth devices too, which libnm models as Ethernet.
static inline gboolean CLibNM_is_device_ethernet(gpointer object) {
    return NM_IS_DEVICE_ETHERNET(object);
}

/// `G_PRIORITY_DEFAULT` is a plain define; re-exported so the executor can match D-Bus dispatch priority.
static const gint CLibNM_PRIORITY_DEFAULT = G_PRIORITY_DEFAULT;

/// `G_SOURCE_REMOVE` is a define; the one-shot sources return it.
static const gboolean CLibNM_SOURCE_REMOVE = G_SOURCE_REMOVE;

#endif
