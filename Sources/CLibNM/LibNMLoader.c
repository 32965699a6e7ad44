// Each libnm and GLib function the NetworkManager adapter calls, forwarded to libnm loaded with dlopen on
// first use (GLib, GObject and GIO come in as libnm's own dependencies).
//
// The forwarders carry the libraries' own names and prototypes (the compiler checks them against the
// headers), so the Swift code calls libnm as if it were linked. They are hidden, so no shared library
// ever binds to them instead of to GLib or libnm.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define HIDDEN __attribute__((visibility("hidden")))

// The forwarders' names are in parentheses: GLib also defines some of these functions as macros.

/// The soname of Debian's libnm0.
static const char library_name[] = "libnm.so.0";

#define FUNCTIONS(X) \
    X(g_async_initable_init_async) \
    X(g_async_initable_init_finish) \
    X(g_bytes_get_data) \
    X(g_cancellable_cancel) \
    X(g_cancellable_is_cancelled) \
    X(g_cancellable_new) \
    X(g_cancellable_source_new) \
    X(g_dbus_address_get_for_bus_sync) \
    X(g_dbus_connection_close) \
    X(g_dbus_connection_get_type) \
    X(g_dbus_connection_new_for_address) \
    X(g_dbus_connection_new_for_address_finish) \
    X(g_dbus_connection_signal_subscribe) \
    X(g_dbus_connection_signal_unsubscribe) \
    X(g_dbus_error_quark) \
    X(g_error_free) \
    X(g_free) \
    X(g_get_user_name) \
    X(g_idle_source_new) \
    X(g_io_error_quark) \
    X(g_main_context_get_thread_default) \
    X(g_main_context_is_owner) \
    X(g_main_context_iteration) \
    X(g_main_context_new) \
    X(g_main_context_pop_thread_default) \
    X(g_main_context_push_thread_default) \
    X(g_main_context_ref) \
    X(g_main_context_unref) \
    X(g_main_loop_new) \
    X(g_main_loop_quit) \
    X(g_main_loop_ref) \
    X(g_main_loop_run) \
    X(g_main_loop_unref) \
    X(g_object_new_with_properties) \
    X(g_object_ref) \
    X(g_object_unref) \
    X(g_signal_connect_data) \
    X(g_signal_handler_disconnect) \
    X(g_source_attach) \
    X(g_source_destroy) \
    X(g_source_set_callback) \
    X(g_source_set_priority) \
    X(g_source_unref) \
    X(g_thread_new) \
    X(g_thread_unref) \
    X(g_timeout_source_new) \
    X(g_type_check_instance_is_a) \
    X(g_value_init) \
    X(g_value_set_object) \
    X(g_value_unset) \
    X(g_variant_get_child_value) \
    X(g_variant_get_uint32) \
    X(g_variant_is_container) \
    X(g_variant_is_of_type) \
    X(g_variant_n_children) \
    X(g_variant_new_array) \
    X(g_variant_new_boolean) \
    X(g_variant_new_dict_entry) \
    X(g_variant_new_fixed_array) \
    X(g_variant_new_int32) \
    X(g_variant_new_string) \
    X(g_variant_new_uint32) \
    X(g_variant_new_variant) \
    X(g_variant_print) \
    X(g_variant_ref_sink) \
    X(g_variant_unref) \
    X(nm_access_point_get_bssid) \
    X(nm_access_point_get_last_seen) \
    X(nm_access_point_get_ssid) \
    X(nm_access_point_get_strength) \
    X(nm_active_connection_get_connection) \
    X(nm_active_connection_get_id) \
    X(nm_active_connection_get_state) \
    X(nm_active_connection_get_state_reason) \
    X(nm_client_activate_connection_async) \
    X(nm_client_activate_connection_finish) \
    X(nm_client_add_and_activate_connection2) \
    X(nm_client_add_and_activate_connection2_finish) \
    X(nm_client_add_and_activate_connection_async) \
    X(nm_client_add_and_activate_connection_finish) \
    X(nm_client_deactivate_connection_async) \
    X(nm_client_deactivate_connection_finish) \
    X(nm_client_error_quark) \
    X(nm_client_get_connection_by_uuid) \
    X(nm_client_get_devices) \
    X(nm_client_get_nm_running) \
    X(nm_client_get_type) \
    X(nm_client_get_version) \
    X(nm_client_wireless_get_enabled) \
    X(nm_client_wireless_hardware_get_enabled) \
    X(nm_connection_get_id) \
    X(nm_device_error_quark) \
    X(nm_device_ethernet_get_type) \
    X(nm_device_get_active_connection) \
    X(nm_device_get_iface) \
    X(nm_device_get_ip4_config) \
    X(nm_device_get_state) \
    X(nm_device_get_state_reason) \
    X(nm_device_wifi_get_access_points) \
    X(nm_device_wifi_get_last_scan) \
    X(nm_device_wifi_get_type) \
    X(nm_device_wifi_request_scan_finish) \
    X(nm_device_wifi_request_scan_options_async) \
    X(nm_ip_address_get_address) \
    X(nm_ip_address_get_prefix) \
    X(nm_ip_config_get_addresses) \
    X(nm_ip_config_get_gateway) \
    X(nm_manager_error_quark) \
    X(nm_object_get_path) \
    X(nm_remote_connection_delete_async) \
    X(nm_remote_connection_delete_finish) \
    X(nm_settings_error_quark) \
    X(nm_simple_connection_new_from_dbus) \
    X(nm_utils_get_timestamp_msec) \
    X(nm_utils_uuid_generate)

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

const char *CLibNM_load(void) {
    pthread_once(&load_once, load);
    return load_failure[0] == '\0' ? NULL : load_failure;
}

static inline __typeof__(functions) *library(void) {
    const char *failure = CLibNM_load();
    if (failure != NULL) {
        fprintf(stderr, "ztprov: cannot use libnm: %s\n", failure);
        abort();
    }
    return &functions;
}

HIDDEN void (g_async_initable_init_async)(GAsyncInitable *initable, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->g_async_initable_init_async)(initable, io_priority, cancellable, callback, user_data);
}

HIDDEN gboolean (g_async_initable_init_finish)(GAsyncInitable *initable, GAsyncResult *res, GError **error) {
    return (library()->g_async_initable_init_finish)(initable, res, error);
}

HIDDEN gconstpointer (g_bytes_get_data)(GBytes *bytes, gsize *size) {
    return (library()->g_bytes_get_data)(bytes, size);
}

HIDDEN void (g_cancellable_cancel)(GCancellable *cancellable) {
    (library()->g_cancellable_cancel)(cancellable);
}

HIDDEN gboolean (g_cancellable_is_cancelled)(GCancellable *cancellable) {
    return (library()->g_cancellable_is_cancelled)(cancellable);
}

HIDDEN GCancellable *(g_cancellable_new)(void) {
    return (library()->g_cancellable_new)();
}

HIDDEN GSource *(g_cancellable_source_new)(GCancellable *cancellable) {
    return (library()->g_cancellable_source_new)(cancellable);
}

HIDDEN gchar *(g_dbus_address_get_for_bus_sync)(GBusType bus_type, GCancellable *cancellable, GError **error) {
    return (library()->g_dbus_address_get_for_bus_sync)(bus_type, cancellable, error);
}

HIDDEN void (g_dbus_connection_close)(GDBusConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->g_dbus_connection_close)(connection, cancellable, callback, user_data);
}

HIDDEN GType (g_dbus_connection_get_type)(void) {
    return (library()->g_dbus_connection_get_type)();
}

HIDDEN void (g_dbus_connection_new_for_address)(const gchar *address, GDBusConnectionFlags flags, GDBusAuthObserver *observer, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->g_dbus_connection_new_for_address)(address, flags, observer, cancellable, callback, user_data);
}

HIDDEN GDBusConnection *(g_dbus_connection_new_for_address_finish)(GAsyncResult *res, GError **error) {
    return (library()->g_dbus_connection_new_for_address_finish)(res, error);
}

HIDDEN guint (g_dbus_connection_signal_subscribe)(GDBusConnection *connection, const gchar *sender, const gchar *interface_name, const gchar *member, const gchar *object_path, const gchar *arg0, GDBusSignalFlags flags, GDBusSignalCallback callback, gpointer user_data, GDestroyNotify user_data_free_func) {
    return (library()->g_dbus_connection_signal_subscribe)(connection, sender, interface_name, member, object_path, arg0, flags, callback, user_data, user_data_free_func);
}

HIDDEN void (g_dbus_connection_signal_unsubscribe)(GDBusConnection *connection, guint subscription_id) {
    (library()->g_dbus_connection_signal_unsubscribe)(connection, subscription_id);
}

HIDDEN GQuark (g_dbus_error_quark)(void) {
    return (library()->g_dbus_error_quark)();
}

HIDDEN void (g_error_free)(GError *error) {
    (library()->g_error_free)(error);
}

HIDDEN void (g_free)(gpointer mem) {
    (library()->g_free)(mem);
}

HIDDEN const gchar *(g_get_user_name)(void) {
    return (library()->g_get_user_name)();
}

HIDDEN GSource *(g_idle_source_new)(void) {
    return (library()->g_idle_source_new)();
}

HIDDEN GQuark (g_io_error_quark)(void) {
    return (library()->g_io_error_quark)();
}

HIDDEN GMainContext *(g_main_context_get_thread_default)(void) {
    return (library()->g_main_context_get_thread_default)();
}

HIDDEN gboolean (g_main_context_is_owner)(GMainContext *context) {
    return (library()->g_main_context_is_owner)(context);
}

HIDDEN gboolean (g_main_context_iteration)(GMainContext *context, gboolean may_block) {
    return (library()->g_main_context_iteration)(context, may_block);
}

HIDDEN GMainContext *(g_main_context_new)(void) {
    return (library()->g_main_context_new)();
}

HIDDEN void (g_main_context_pop_thread_default)(GMainContext *context) {
    (library()->g_main_context_pop_thread_default)(context);
}

HIDDEN void (g_main_context_push_thread_default)(GMainContext *context) {
    (library()->g_main_context_push_thread_default)(context);
}

HIDDEN GMainContext *(g_main_context_ref)(GMainContext *context) {
    return (library()->g_main_context_ref)(context);
}

HIDDEN void (g_main_context_unref)(GMainContext *context) {
    (library()->g_main_context_unref)(context);
}

HIDDEN GMainLoop *(g_main_loop_new)(GMainContext *context, gboolean is_running) {
    return (library()->g_main_loop_new)(context, is_running);
}

HIDDEN void (g_main_loop_quit)(GMainLoop *loop) {
    (library()->g_main_loop_quit)(loop);
}

HIDDEN GMainLoop *(g_main_loop_ref)(GMainLoop *loop) {
    return (library()->g_main_loop_ref)(loop);
}

HIDDEN void (g_main_loop_run)(GMainLoop *loop) {
    (library()->g_main_loop_run)(loop);
}

HIDDEN void (g_main_loop_unref)(GMainLoop *loop) {
    (library()->g_main_loop_unref)(loop);
}

HIDDEN GObject *(g_object_new_with_properties)(GType object_type, guint n_properties, const char **names, const GValue *values) {
    return (library()->g_object_new_with_properties)(object_type, n_properties, names, values);
}

HIDDEN gpointer (g_object_ref)(gpointer object) {
    return (library()->g_object_ref)(object);
}

HIDDEN void (g_object_unref)(gpointer object) {
    (library()->g_object_unref)(object);
}

HIDDEN gulong (g_signal_connect_data)(gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data, GClosureNotify destroy_data, GConnectFlags connect_flags) {
    return (library()->g_signal_connect_data)(instance, detailed_signal, c_handler, data, destroy_data, connect_flags);
}

HIDDEN void (g_signal_handler_disconnect)(gpointer instance, gulong handler_id) {
    (library()->g_signal_handler_disconnect)(instance, handler_id);
}

HIDDEN guint (g_source_attach)(GSource *source, GMainContext *context) {
    return (library()->g_source_attach)(source, context);
}

HIDDEN void (g_source_destroy)(GSource *source) {
    (library()->g_source_destroy)(source);
}

HIDDEN void (g_source_set_callback)(GSource *source, GSourceFunc func, gpointer data, GDestroyNotify notify) {
    (library()->g_source_set_callback)(source, func, data, notify);
}

HIDDEN void (g_source_set_priority)(GSource *source, gint priority) {
    (library()->g_source_set_priority)(source, priority);
}

HIDDEN void (g_source_unref)(GSource *source) {
    (library()->g_source_unref)(source);
}

HIDDEN GThread *(g_thread_new)(const gchar *name, GThreadFunc func, gpointer data) {
    return (library()->g_thread_new)(name, func, data);
}

HIDDEN void (g_thread_unref)(GThread *thread) {
    (library()->g_thread_unref)(thread);
}

HIDDEN GSource *(g_timeout_source_new)(guint interval) {
    return (library()->g_timeout_source_new)(interval);
}

HIDDEN gboolean (g_type_check_instance_is_a)(GTypeInstance *instance, GType iface_type) {
    return (library()->g_type_check_instance_is_a)(instance, iface_type);
}

HIDDEN GValue *(g_value_init)(GValue *value, GType g_type) {
    return (library()->g_value_init)(value, g_type);
}

HIDDEN void (g_value_set_object)(GValue *value, gpointer v_object) {
    (library()->g_value_set_object)(value, v_object);
}

HIDDEN void (g_value_unset)(GValue *value) {
    (library()->g_value_unset)(value);
}

HIDDEN GVariant *(g_variant_get_child_value)(GVariant *value, gsize index_) {
    return (library()->g_variant_get_child_value)(value, index_);
}

HIDDEN guint32 (g_variant_get_uint32)(GVariant *value) {
    return (library()->g_variant_get_uint32)(value);
}

HIDDEN gboolean (g_variant_is_container)(GVariant *value) {
    return (library()->g_variant_is_container)(value);
}

HIDDEN gboolean (g_variant_is_of_type)(GVariant *value, const GVariantType *type) {
    return (library()->g_variant_is_of_type)(value, type);
}

HIDDEN gsize (g_variant_n_children)(GVariant *value) {
    return (library()->g_variant_n_children)(value);
}

HIDDEN GVariant *(g_variant_new_array)(const GVariantType *child_type, GVariant *const *children, gsize n_children) {
    return (library()->g_variant_new_array)(child_type, children, n_children);
}

HIDDEN GVariant *(g_variant_new_boolean)(gboolean value) {
    return (library()->g_variant_new_boolean)(value);
}

HIDDEN GVariant *(g_variant_new_dict_entry)(GVariant *key, GVariant *value) {
    return (library()->g_variant_new_dict_entry)(key, value);
}

HIDDEN GVariant *(g_variant_new_fixed_array)(const GVariantType *element_type, gconstpointer elements, gsize n_elements, gsize element_size) {
    return (library()->g_variant_new_fixed_array)(element_type, elements, n_elements, element_size);
}

HIDDEN GVariant *(g_variant_new_int32)(gint32 value) {
    return (library()->g_variant_new_int32)(value);
}

HIDDEN GVariant *(g_variant_new_string)(const gchar *string) {
    return (library()->g_variant_new_string)(string);
}

HIDDEN GVariant *(g_variant_new_uint32)(guint32 value) {
    return (library()->g_variant_new_uint32)(value);
}

HIDDEN GVariant *(g_variant_new_variant)(GVariant *value) {
    return (library()->g_variant_new_variant)(value);
}

HIDDEN gchar *(g_variant_print)(GVariant *value, gboolean type_annotate) {
    return (library()->g_variant_print)(value, type_annotate);
}

HIDDEN GVariant *(g_variant_ref_sink)(GVariant *value) {
    return (library()->g_variant_ref_sink)(value);
}

HIDDEN void (g_variant_unref)(GVariant *value) {
    (library()->g_variant_unref)(value);
}

HIDDEN const char *(nm_access_point_get_bssid)(NMAccessPoint *ap) {
    return (library()->nm_access_point_get_bssid)(ap);
}

HIDDEN int (nm_access_point_get_last_seen)(NMAccessPoint *ap) {
    return (library()->nm_access_point_get_last_seen)(ap);
}

HIDDEN GBytes *(nm_access_point_get_ssid)(NMAccessPoint *ap) {
    return (library()->nm_access_point_get_ssid)(ap);
}

HIDDEN guint8 (nm_access_point_get_strength)(NMAccessPoint *ap) {
    return (library()->nm_access_point_get_strength)(ap);
}

HIDDEN NMRemoteConnection *(nm_active_connection_get_connection)(NMActiveConnection *connection) {
    return (library()->nm_active_connection_get_connection)(connection);
}

HIDDEN const char *(nm_active_connection_get_id)(NMActiveConnection *connection) {
    return (library()->nm_active_connection_get_id)(connection);
}

HIDDEN NMActiveConnectionState (nm_active_connection_get_state)(NMActiveConnection *connection) {
    return (library()->nm_active_connection_get_state)(connection);
}

HIDDEN NMActiveConnectionStateReason (nm_active_connection_get_state_reason)(NMActiveConnection *connection) {
    return (library()->nm_active_connection_get_state_reason)(connection);
}

HIDDEN void (nm_client_activate_connection_async)(NMClient *client, NMConnection *connection, NMDevice *device, const char *specific_object, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->nm_client_activate_connection_async)(client, connection, device, specific_object, cancellable, callback, user_data);
}

HIDDEN NMActiveConnection *(nm_client_activate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error) {
    return (library()->nm_client_activate_connection_finish)(client, result, error);
}

HIDDEN void (nm_client_add_and_activate_connection2)(NMClient *client, NMConnection *partial, NMDevice *device, const char *specific_object, GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->nm_client_add_and_activate_connection2)(client, partial, device, specific_object, options, cancellable, callback, user_data);
}

HIDDEN NMActiveConnection *(nm_client_add_and_activate_connection2_finish)(NMClient *client, GAsyncResult *result, GVariant **out_result, GError **error) {
    return (library()->nm_client_add_and_activate_connection2_finish)(client, result, out_result, error);
}

HIDDEN void (nm_client_add_and_activate_connection_async)(NMClient *client, NMConnection *partial, NMDevice *device, const char *specific_object, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->nm_client_add_and_activate_connection_async)(client, partial, device, specific_object, cancellable, callback, user_data);
}

HIDDEN NMActiveConnection *(nm_client_add_and_activate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error) {
    return (library()->nm_client_add_and_activate_connection_finish)(client, result, error);
}

HIDDEN void (nm_client_deactivate_connection_async)(NMClient *client, NMActiveConnection *active, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->nm_client_deactivate_connection_async)(client, active, cancellable, callback, user_data);
}

HIDDEN gboolean (nm_client_deactivate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error) {
    return (library()->nm_client_deactivate_connection_finish)(client, result, error);
}

HIDDEN GQuark (nm_client_error_quark)(void) {
    return (library()->nm_client_error_quark)();
}

HIDDEN NMRemoteConnection *(nm_client_get_connection_by_uuid)(NMClient *client, const char *uuid) {
    return (library()->nm_client_get_connection_by_uuid)(client, uuid);
}

HIDDEN const GPtrArray *(nm_client_get_devices)(NMClient *client) {
    return (library()->nm_client_get_devices)(client);
}

HIDDEN gboolean (nm_client_get_nm_running)(NMClient *client) {
    return (library()->nm_client_get_nm_running)(client);
}

HIDDEN GType (nm_client_get_type)(void) {
    return (library()->nm_client_get_type)();
}

HIDDEN const char *(nm_client_get_version)(NMClient *client) {
    return (library()->nm_client_get_version)(client);
}

HIDDEN gboolean (nm_client_wireless_get_enabled)(NMClient *client) {
    return (library()->nm_client_wireless_get_enabled)(client);
}

HIDDEN gboolean (nm_client_wireless_hardware_get_enabled)(NMClient *client) {
    return (library()->nm_client_wireless_hardware_get_enabled)(client);
}

HIDDEN const char *(nm_connection_get_id)(NMConnection *connection) {
    return (library()->nm_connection_get_id)(connection);
}

HIDDEN GQuark (nm_device_error_quark)(void) {
    return (library()->nm_device_error_quark)();
}

HIDDEN GType (nm_device_ethernet_get_type)(void) {
    return (library()->nm_device_ethernet_get_type)();
}

HIDDEN NMActiveConnection *(nm_device_get_active_connection)(NMDevice *device) {
    return (library()->nm_device_get_active_connection)(device);
}

HIDDEN const char *(nm_device_get_iface)(NMDevice *device) {
    return (library()->nm_device_get_iface)(device);
}

HIDDEN NMIPConfig *(nm_device_get_ip4_config)(NMDevice *device) {
    return (library()->nm_device_get_ip4_config)(device);
}

HIDDEN NMDeviceState (nm_device_get_state)(NMDevice *device) {
    return (library()->nm_device_get_state)(device);
}

HIDDEN NMDeviceStateReason (nm_device_get_state_reason)(NMDevice *device) {
    return (library()->nm_device_get_state_reason)(device);
}

HIDDEN const GPtrArray *(nm_device_wifi_get_access_points)(NMDeviceWifi *device) {
    return (library()->nm_device_wifi_get_access_points)(device);
}

HIDDEN gint64 (nm_device_wifi_get_last_scan)(NMDeviceWifi *device) {
    return (library()->nm_device_wifi_get_last_scan)(device);
}

HIDDEN GType (nm_device_wifi_get_type)(void) {
    return (library()->nm_device_wifi_get_type)();
}

HIDDEN gboolean (nm_device_wifi_request_scan_finish)(NMDeviceWifi *device, GAsyncResult *result, GError **error) {
    return (library()->nm_device_wifi_request_scan_finish)(device, result, error);
}

HIDDEN void (nm_device_wifi_request_scan_options_async)(NMDeviceWifi *device, GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->nm_device_wifi_request_scan_options_async)(device, options, cancellable, callback, user_data);
}

HIDDEN const char *(nm_ip_address_get_address)(NMIPAddress *address) {
    return (library()->nm_ip_address_get_address)(address);
}

HIDDEN guint (nm_ip_address_get_prefix)(NMIPAddress *address) {
    return (library()->nm_ip_address_get_prefix)(address);
}

HIDDEN GPtrArray *(nm_ip_config_get_addresses)(NMIPConfig *config) {
    return (library()->nm_ip_config_get_addresses)(config);
}

HIDDEN const char *(nm_ip_config_get_gateway)(NMIPConfig *config) {
    return (library()->nm_ip_config_get_gateway)(config);
}

HIDDEN GQuark (nm_manager_error_quark)(void) {
    return (library()->nm_manager_error_quark)();
}

HIDDEN const char *(nm_object_get_path)(NMObject *object) {
    return (library()->nm_object_get_path)(object);
}

HIDDEN void (nm_remote_connection_delete_async)(NMRemoteConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    (library()->nm_remote_connection_delete_async)(connection, cancellable, callback, user_data);
}

HIDDEN gboolean (nm_remote_connection_delete_finish)(NMRemoteConnection *connection, GAsyncResult *result, GError **error) {
    return (library()->nm_remote_connection_delete_finish)(connection, result, error);
}

HIDDEN GQuark (nm_settings_error_quark)(void) {
    return (library()->nm_settings_error_quark)();
}

HIDDEN NMConnection *(nm_simple_connection_new_from_dbus)(GVariant *dict, GError **error) {
    return (library()->nm_simple_connection_new_from_dbus)(dict, error);
}

HIDDEN gint64 (nm_utils_get_timestamp_msec)(void) {
    return (library()->nm_utils_get_timestamp_msec)();
}

HIDDEN char *(nm_utils_uuid_generate)(void) {
    return (library()->nm_utils_uuid_generate)();
}
