// The part of libnm (and of GLib, GObject and GIO under it) that the NetworkManager adapter calls, declared
// here rather than taken from libnm's headers: a module's public header is read by every module that imports
// its importers, and libnm's headers sit in pkg-config paths no other target knows. libnm is loaded on first
// use (LibNMLoader.c), not linked: only `softap`, `doctor` and `batch` talk to NetworkManager.
//
// Every declaration carries the library's own name and a type compatible with libnm's header (an enum
// becomes the integer type the compiler gives it). `NetworkManagerTests.libNMShimMatchesLibNMHeaders` compiles
// LibNMLoader.c after libnm's own headers, so a prototype, a constant or a struct layout that disagrees with
// them fails the test suite.
#ifndef ZTPROV_CLIBNM_SHIM_H
#define ZTPROV_CLIBNM_SHIM_H

// GLib's basic types (glib/gtypes.h, glibconfig.h on LP64 Linux).
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef gint gboolean;
typedef int gint32;
typedef unsigned int guint32;
typedef unsigned char guint8;
typedef signed long gint64;
typedef unsigned long gulong;
typedef unsigned long gsize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef gsize GType;
typedef guint32 GQuark;

// Types ztprov only holds pointers to.
typedef struct _GAsyncInitable GAsyncInitable;
typedef struct _GAsyncResult GAsyncResult;
typedef struct _GBytes GBytes;
typedef struct _GCancellable GCancellable;
typedef struct _GClosure GClosure;
typedef struct _GDBusAuthObserver GDBusAuthObserver;
typedef struct _GDBusConnection GDBusConnection;
typedef struct _GMainContext GMainContext;
typedef struct _GMainLoop GMainLoop;
typedef struct _GObject GObject;
typedef struct _GParamSpec GParamSpec;
typedef struct _GSource GSource;
typedef struct _GThread GThread;
typedef struct _GTypeInstance GTypeInstance;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;
typedef struct _NMAccessPoint NMAccessPoint;
typedef struct _NMActiveConnection NMActiveConnection;
typedef struct _NMClient NMClient;
typedef struct _NMConnection NMConnection;
typedef struct _NMDevice NMDevice;
typedef struct _NMDeviceWifi NMDeviceWifi;
typedef struct _NMIPConfig NMIPConfig;
typedef struct NMIPAddress NMIPAddress;
typedef struct _NMObject NMObject;
typedef struct _NMRemoteConnection NMRemoteConnection;

// Types whose fields ztprov reads or which it allocates: their layouts are part of GLib's stable ABI.
// Each stands aside when GLib's own header came first (the conformance check), which then checks the
// layout these definitions assume.
typedef struct _GError GError;
typedef struct _GPtrArray GPtrArray;
typedef struct _GValue GValue;
#ifndef __G_ERROR_H__
struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
};
#endif
#ifndef __G_ARRAY_H__
struct _GPtrArray {
    gpointer *pdata;
    guint len;
};
#endif
#ifndef __G_VALUE_H__
/// Set up with `g_value_init` on a zeroed value, as GLib's `G_VALUE_INIT` does.
struct _GValue {
    GType g_type;
    union {
        gint64 v_int64;
        gpointer v_pointer;
    } data[2];
};
#endif

// Callback types.
typedef void (*GCallback)(void);
typedef void (*GDestroyNotify)(gpointer data);
typedef void (*GClosureNotify)(gpointer data, GClosure *closure);
typedef gboolean (*GSourceFunc)(gpointer user_data);
typedef gpointer (*GThreadFunc)(gpointer data);
typedef void (*GAsyncReadyCallback)(GObject *source_object, GAsyncResult *res, gpointer data);
typedef void (*GDBusSignalCallback)(GDBusConnection *connection, const gchar *sender_name, const gchar *object_path,
                                    const gchar *interface_name, const gchar *signal_name, GVariant *parameters,
                                    gpointer user_data);

// The enumerators ztprov names, with GLib's and libnm's values (the conformance check compares them).
typedef enum { CLibNM_BUS_TYPE_SYSTEM = 1 } CLibNMBusType;
typedef enum {
    CLibNM_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT = 1,
    CLibNM_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION = 8,
} CLibNMDBusConnectionFlags;
typedef enum { CLibNM_DBUS_SIGNAL_FLAGS_NONE = 0 } CLibNMDBusSignalFlags;
/// Error codes ztprov tells apart, each within its own error domain.
typedef enum {
    CLibNM_IO_ERROR_CANCELLED = 19,
    CLibNM_DBUS_ERROR_ACCESS_DENIED = 9,
    CLibNM_DBUS_ERROR_UNKNOWN_METHOD = 19,
    CLibNM_CLIENT_ERROR_OBJECT_CREATION_FAILED = 2,
    CLibNM_DEVICE_ERROR_NOT_ALLOWED = 6,
    CLibNM_MANAGER_ERROR_PERMISSION_DENIED = 1,
    CLibNM_MANAGER_ERROR_CONNECTION_NOT_ACTIVE = 5,
    CLibNM_SETTINGS_ERROR_PERMISSION_DENIED = 1,
} CLibNMErrorCode;
/// `G_PRIORITY_DEFAULT`, so the executor can match D-Bus dispatch priority.
#define CLibNM_PRIORITY_DEFAULT 0
/// `G_SOURCE_REMOVE`, which the one-shot sources return.
#define CLibNM_SOURCE_REMOVE 0

/// Loads libnm if it is not loaded yet. Returns NULL once it is loaded, or why it cannot be (the text
/// stays valid for the life of the process). Call it before the first libnm or GLib function: one called
/// while the library cannot be loaded ends the process.
const char *CLibNM_load(void);

// The functions, each forwarded by LibNMLoader.c. The names are in parentheses: GLib also defines some of
// them as macros.
void (g_async_initable_init_async)(GAsyncInitable *initable, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean (g_async_initable_init_finish)(GAsyncInitable *initable, GAsyncResult *res, GError **error);
gconstpointer (g_bytes_get_data)(GBytes *bytes, gsize *size);
void (g_cancellable_cancel)(GCancellable *cancellable);
gboolean (g_cancellable_is_cancelled)(GCancellable *cancellable);
GCancellable *(g_cancellable_new)(void);
GSource *(g_cancellable_source_new)(GCancellable *cancellable);
gchar *(g_dbus_address_get_for_bus_sync)(gint bus_type, GCancellable *cancellable, GError **error);
void (g_dbus_connection_close)(GDBusConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
GType (g_dbus_connection_get_type)(void);
void (g_dbus_connection_new_for_address)(const gchar *address, guint flags, GDBusAuthObserver *observer, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
GDBusConnection *(g_dbus_connection_new_for_address_finish)(GAsyncResult *res, GError **error);
guint (g_dbus_connection_signal_subscribe)(GDBusConnection *connection, const gchar *sender, const gchar *interface_name, const gchar *member, const gchar *object_path, const gchar *arg0, guint flags, GDBusSignalCallback callback, gpointer user_data, GDestroyNotify user_data_free_func);
void (g_dbus_connection_signal_unsubscribe)(GDBusConnection *connection, guint subscription_id);
GQuark (g_dbus_error_quark)(void);
void (g_error_free)(GError *error);
void (g_free)(gpointer mem);
const gchar *(g_get_user_name)(void);
GSource *(g_idle_source_new)(void);
GQuark (g_io_error_quark)(void);
GMainContext *(g_main_context_get_thread_default)(void);
gboolean (g_main_context_is_owner)(GMainContext *context);
gboolean (g_main_context_iteration)(GMainContext *context, gboolean may_block);
GMainContext *(g_main_context_new)(void);
void (g_main_context_pop_thread_default)(GMainContext *context);
void (g_main_context_push_thread_default)(GMainContext *context);
GMainContext *(g_main_context_ref)(GMainContext *context);
void (g_main_context_unref)(GMainContext *context);
GMainLoop *(g_main_loop_new)(GMainContext *context, gboolean is_running);
void (g_main_loop_quit)(GMainLoop *loop);
GMainLoop *(g_main_loop_ref)(GMainLoop *loop);
void (g_main_loop_run)(GMainLoop *loop);
void (g_main_loop_unref)(GMainLoop *loop);
GObject *(g_object_new_with_properties)(GType object_type, guint n_properties, const char **names, const GValue *values);
gpointer (g_object_ref)(gpointer object);
void (g_object_unref)(gpointer object);
gulong (g_signal_connect_data)(gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data, GClosureNotify destroy_data, guint connect_flags);
void (g_signal_handler_disconnect)(gpointer instance, gulong handler_id);
guint (g_source_attach)(GSource *source, GMainContext *context);
void (g_source_destroy)(GSource *source);
void (g_source_set_callback)(GSource *source, GSourceFunc func, gpointer data, GDestroyNotify notify);
void (g_source_set_priority)(GSource *source, gint priority);
void (g_source_unref)(GSource *source);
GThread *(g_thread_new)(const gchar *name, GThreadFunc func, gpointer data);
void (g_thread_unref)(GThread *thread);
GSource *(g_timeout_source_new)(guint interval);
gboolean (g_type_check_instance_is_a)(GTypeInstance *instance, GType iface_type);
GValue *(g_value_init)(GValue *value, GType g_type);
void (g_value_set_object)(GValue *value, gpointer v_object);
void (g_value_unset)(GValue *value);
GVariant *(g_variant_get_child_value)(GVariant *value, gsize index_);
guint32 (g_variant_get_uint32)(GVariant *value);
gboolean (g_variant_is_container)(GVariant *value);
gboolean (g_variant_is_of_type)(GVariant *value, const GVariantType *type);
gsize (g_variant_n_children)(GVariant *value);
GVariant *(g_variant_new_array)(const GVariantType *child_type, GVariant *const *children, gsize n_children);
GVariant *(g_variant_new_boolean)(gboolean value);
GVariant *(g_variant_new_dict_entry)(GVariant *key, GVariant *value);
GVariant *(g_variant_new_fixed_array)(const GVariantType *element_type, gconstpointer elements, gsize n_elements, gsize element_size);
GVariant *(g_variant_new_int32)(gint32 value);
GVariant *(g_variant_new_string)(const gchar *string);
GVariant *(g_variant_new_uint32)(guint32 value);
GVariant *(g_variant_new_variant)(GVariant *value);
gchar *(g_variant_print)(GVariant *value, gboolean type_annotate);
GVariant *(g_variant_ref_sink)(GVariant *value);
void (g_variant_unref)(GVariant *value);
const char *(nm_access_point_get_bssid)(NMAccessPoint *ap);
int (nm_access_point_get_last_seen)(NMAccessPoint *ap);
GBytes *(nm_access_point_get_ssid)(NMAccessPoint *ap);
guint8 (nm_access_point_get_strength)(NMAccessPoint *ap);
NMRemoteConnection *(nm_active_connection_get_connection)(NMActiveConnection *connection);
const char *(nm_active_connection_get_id)(NMActiveConnection *connection);
guint (nm_active_connection_get_state)(NMActiveConnection *connection);
guint (nm_active_connection_get_state_reason)(NMActiveConnection *connection);
void (nm_client_activate_connection_async)(NMClient *client, NMConnection *connection, NMDevice *device, const char *specific_object, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
NMActiveConnection *(nm_client_activate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error);
void (nm_client_add_and_activate_connection2)(NMClient *client, NMConnection *partial, NMDevice *device, const char *specific_object, GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
NMActiveConnection *(nm_client_add_and_activate_connection2_finish)(NMClient *client, GAsyncResult *result, GVariant **out_result, GError **error);
void (nm_client_add_and_activate_connection_async)(NMClient *client, NMConnection *partial, NMDevice *device, const char *specific_object, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
NMActiveConnection *(nm_client_add_and_activate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error);
void (nm_client_deactivate_connection_async)(NMClient *client, NMActiveConnection *active, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean (nm_client_deactivate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error);
GQuark (nm_client_error_quark)(void);
NMRemoteConnection *(nm_client_get_connection_by_uuid)(NMClient *client, const char *uuid);
const GPtrArray *(nm_client_get_devices)(NMClient *client);
gboolean (nm_client_get_nm_running)(NMClient *client);
GType (nm_client_get_type)(void);
const char *(nm_client_get_version)(NMClient *client);
gboolean (nm_client_wireless_get_enabled)(NMClient *client);
gboolean (nm_client_wireless_hardware_get_enabled)(NMClient *client);
const char *(nm_connection_get_id)(NMConnection *connection);
GQuark (nm_device_error_quark)(void);
GType (nm_device_ethernet_get_type)(void);
NMActiveConnection *(nm_device_get_active_connection)(NMDevice *device);
const char *(nm_device_get_iface)(NMDevice *device);
NMIPConfig *(nm_device_get_ip4_config)(NMDevice *device);
guint (nm_device_get_state)(NMDevice *device);
guint (nm_device_get_state_reason)(NMDevice *device);
const GPtrArray *(nm_device_wifi_get_access_points)(NMDeviceWifi *device);
gint64 (nm_device_wifi_get_last_scan)(NMDeviceWifi *device);
GType (nm_device_wifi_get_type)(void);
gboolean (nm_device_wifi_request_scan_finish)(NMDeviceWifi *device, GAsyncResult *result, GError **error);
void (nm_device_wifi_request_scan_options_async)(NMDeviceWifi *device, GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
const char *(nm_ip_address_get_address)(NMIPAddress *address);
guint (nm_ip_address_get_prefix)(NMIPAddress *address);
GPtrArray *(nm_ip_config_get_addresses)(NMIPConfig *config);
const char *(nm_ip_config_get_gateway)(NMIPConfig *config);
GQuark (nm_manager_error_quark)(void);
const char *(nm_object_get_path)(NMObject *object);
void (nm_remote_connection_delete_async)(NMRemoteConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean (nm_remote_connection_delete_finish)(NMRemoteConnection *connection, GAsyncResult *result, GError **error);
GQuark (nm_settings_error_quark)(void);
NMConnection *(nm_simple_connection_new_from_dbus)(GVariant *dict, GError **error);
gint64 (nm_utils_get_timestamp_msec)(void);
char *(nm_utils_uuid_generate)(void);

/// `g_signal_connect` is a macro over `g_signal_connect_data`; this keeps the call sites short.
static inline gulong CLibNM_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data,
                                           GClosureNotify destroy_data) {
    return g_signal_connect_data(instance, signal, handler, data, destroy_data, 0);
}

/// `G_VARIANT_TYPE("…")` is a cast macro; a type string such as "a{sv}" becomes a `GVariantType`.
static inline const GVariantType *CLibNM_variant_type(const gchar *type_string) {
    return (const GVariantType *)type_string;
}

/// `NM_IS_DEVICE_WIFI` is a type-check macro; Wi-Fi calls on another device kind would abort in libnm.
static inline gboolean CLibNM_is_device_wifi(gpointer object) {
    return object != 0 && g_type_check_instance_is_a((GTypeInstance *)object, nm_device_wifi_get_type());
}

/// `NM_IS_DEVICE_ETHERNET` likewise; it holds for veth devices too, which libnm models as Ethernet.
static inline gboolean CLibNM_is_device_ethernet(gpointer object) {
    return object != 0 && g_type_check_instance_is_a((GTypeInstance *)object, nm_device_ethernet_get_type());
}

#endif
