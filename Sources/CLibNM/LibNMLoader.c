// Each libnm and GLib function the NetworkManager adapter calls, forwarded to libnm loaded with dlopen on
// first use (GLib, GObject and GIO come in as libnm's own dependencies).
//
// The forwarders carry the libraries' own names and prototypes, so the Swift code calls libnm as if it were
// linked. They are hidden, so no shared library ever binds to them instead of to GLib or libnm.
#include "shim.h"

#include <LazyLibrary.h>

// The conformance check (`CLIBNM_CHECK_AGAINST_LIBNM`, with libnm's own headers included first): every
// forwarder above is then also checked against libnm's prototype, and these against its values and layouts.
#ifdef CLIBNM_CHECK_AGAINST_LIBNM
#include <stddef.h>
#define CLIBNM_SAME_VALUE(ours, theirs) _Static_assert((long long)(ours) == (long long)(theirs), #ours " differs from " #theirs)
CLIBNM_SAME_VALUE(CLibNM_BUS_TYPE_SYSTEM, G_BUS_TYPE_SYSTEM);
CLIBNM_SAME_VALUE(CLibNM_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT);
CLIBNM_SAME_VALUE(CLibNM_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION);
CLIBNM_SAME_VALUE(CLibNM_DBUS_SIGNAL_FLAGS_NONE, G_DBUS_SIGNAL_FLAGS_NONE);
CLIBNM_SAME_VALUE(CLibNM_PRIORITY_DEFAULT, G_PRIORITY_DEFAULT);
CLIBNM_SAME_VALUE(CLibNM_SOURCE_REMOVE, G_SOURCE_REMOVE);
CLIBNM_SAME_VALUE(CLibNM_IO_ERROR_CANCELLED, G_IO_ERROR_CANCELLED);
CLIBNM_SAME_VALUE(CLibNM_DBUS_ERROR_ACCESS_DENIED, G_DBUS_ERROR_ACCESS_DENIED);
CLIBNM_SAME_VALUE(CLibNM_DBUS_ERROR_UNKNOWN_METHOD, G_DBUS_ERROR_UNKNOWN_METHOD);
CLIBNM_SAME_VALUE(CLibNM_CLIENT_ERROR_OBJECT_CREATION_FAILED, NM_CLIENT_ERROR_OBJECT_CREATION_FAILED);
CLIBNM_SAME_VALUE(CLibNM_DEVICE_ERROR_NOT_ALLOWED, NM_DEVICE_ERROR_NOT_ALLOWED);
CLIBNM_SAME_VALUE(CLibNM_MANAGER_ERROR_PERMISSION_DENIED, NM_MANAGER_ERROR_PERMISSION_DENIED);
CLIBNM_SAME_VALUE(CLibNM_MANAGER_ERROR_CONNECTION_NOT_ACTIVE, NM_MANAGER_ERROR_CONNECTION_NOT_ACTIVE);
CLIBNM_SAME_VALUE(CLibNM_SETTINGS_ERROR_PERMISSION_DENIED, NM_SETTINGS_ERROR_PERMISSION_DENIED);
// The integer types that stand for libnm's enums: each function using one is checked as a redeclaration.
CLIBNM_SAME_VALUE(sizeof(GValue), 3 * sizeof(gint64));
CLIBNM_SAME_VALUE(_Alignof(GValue), _Alignof(gint64));
CLIBNM_SAME_VALUE(offsetof(GError, message), sizeof(GQuark) + sizeof(gint));
CLIBNM_SAME_VALUE(offsetof(GPtrArray, len), sizeof(gpointer));
#endif

// The forwarders' names are in parentheses: GLib also defines some of these functions as macros.

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

// libnm.so.0 is the soname of Debian's libnm0.
LAZY_LIBRARY_DEFINE(libnm, "libnm.so.0", FUNCTIONS);

const char *CLibNM_load(void) {
    return LazyLibrary_load(&libnm);
}

LAZY_LIBRARY_FORWARDER void (g_async_initable_init_async)(GAsyncInitable *initable, int io_priority, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, g_async_initable_init_async)(initable, io_priority, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER gboolean (g_async_initable_init_finish)(GAsyncInitable *initable, GAsyncResult *res, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, g_async_initable_init_finish)(initable, res, error);
}

LAZY_LIBRARY_FORWARDER gconstpointer (g_bytes_get_data)(GBytes *bytes, gsize *size) {
    return LAZY_LIBRARY_CALL(libnm, g_bytes_get_data)(bytes, size);
}

LAZY_LIBRARY_FORWARDER void (g_cancellable_cancel)(GCancellable *cancellable) {
    LAZY_LIBRARY_CALL(libnm, g_cancellable_cancel)(cancellable);
}

LAZY_LIBRARY_FORWARDER gboolean (g_cancellable_is_cancelled)(GCancellable *cancellable) {
    return LAZY_LIBRARY_CALL(libnm, g_cancellable_is_cancelled)(cancellable);
}

LAZY_LIBRARY_FORWARDER GCancellable *(g_cancellable_new)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_cancellable_new)();
}

LAZY_LIBRARY_FORWARDER GSource *(g_cancellable_source_new)(GCancellable *cancellable) {
    return LAZY_LIBRARY_CALL(libnm, g_cancellable_source_new)(cancellable);
}

LAZY_LIBRARY_FORWARDER gchar *(g_dbus_address_get_for_bus_sync)(gint bus_type, GCancellable *cancellable, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, g_dbus_address_get_for_bus_sync)(bus_type, cancellable, error);
}

LAZY_LIBRARY_FORWARDER void (g_dbus_connection_close)(GDBusConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, g_dbus_connection_close)(connection, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER GType (g_dbus_connection_get_type)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_dbus_connection_get_type)();
}

LAZY_LIBRARY_FORWARDER void (g_dbus_connection_new_for_address)(const gchar *address, guint flags, GDBusAuthObserver *observer, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, g_dbus_connection_new_for_address)(address, flags, observer, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER GDBusConnection *(g_dbus_connection_new_for_address_finish)(GAsyncResult *res, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, g_dbus_connection_new_for_address_finish)(res, error);
}

LAZY_LIBRARY_FORWARDER guint (g_dbus_connection_signal_subscribe)(GDBusConnection *connection, const gchar *sender, const gchar *interface_name, const gchar *member, const gchar *object_path, const gchar *arg0, guint flags, GDBusSignalCallback callback, gpointer user_data, GDestroyNotify user_data_free_func) {
    return LAZY_LIBRARY_CALL(libnm, g_dbus_connection_signal_subscribe)(connection, sender, interface_name, member, object_path, arg0, flags, callback, user_data, user_data_free_func);
}

LAZY_LIBRARY_FORWARDER void (g_dbus_connection_signal_unsubscribe)(GDBusConnection *connection, guint subscription_id) {
    LAZY_LIBRARY_CALL(libnm, g_dbus_connection_signal_unsubscribe)(connection, subscription_id);
}

LAZY_LIBRARY_FORWARDER GQuark (g_dbus_error_quark)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_dbus_error_quark)();
}

LAZY_LIBRARY_FORWARDER void (g_error_free)(GError *error) {
    LAZY_LIBRARY_CALL(libnm, g_error_free)(error);
}

LAZY_LIBRARY_FORWARDER void (g_free)(gpointer mem) {
    LAZY_LIBRARY_CALL(libnm, g_free)(mem);
}

LAZY_LIBRARY_FORWARDER const gchar *(g_get_user_name)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_get_user_name)();
}

LAZY_LIBRARY_FORWARDER GSource *(g_idle_source_new)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_idle_source_new)();
}

LAZY_LIBRARY_FORWARDER GQuark (g_io_error_quark)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_io_error_quark)();
}

LAZY_LIBRARY_FORWARDER GMainContext *(g_main_context_get_thread_default)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_main_context_get_thread_default)();
}

LAZY_LIBRARY_FORWARDER gboolean (g_main_context_is_owner)(GMainContext *context) {
    return LAZY_LIBRARY_CALL(libnm, g_main_context_is_owner)(context);
}

LAZY_LIBRARY_FORWARDER gboolean (g_main_context_iteration)(GMainContext *context, gboolean may_block) {
    return LAZY_LIBRARY_CALL(libnm, g_main_context_iteration)(context, may_block);
}

LAZY_LIBRARY_FORWARDER GMainContext *(g_main_context_new)(void) {
    return LAZY_LIBRARY_CALL(libnm, g_main_context_new)();
}

LAZY_LIBRARY_FORWARDER void (g_main_context_pop_thread_default)(GMainContext *context) {
    LAZY_LIBRARY_CALL(libnm, g_main_context_pop_thread_default)(context);
}

LAZY_LIBRARY_FORWARDER void (g_main_context_push_thread_default)(GMainContext *context) {
    LAZY_LIBRARY_CALL(libnm, g_main_context_push_thread_default)(context);
}

LAZY_LIBRARY_FORWARDER GMainContext *(g_main_context_ref)(GMainContext *context) {
    return LAZY_LIBRARY_CALL(libnm, g_main_context_ref)(context);
}

LAZY_LIBRARY_FORWARDER void (g_main_context_unref)(GMainContext *context) {
    LAZY_LIBRARY_CALL(libnm, g_main_context_unref)(context);
}

LAZY_LIBRARY_FORWARDER GMainLoop *(g_main_loop_new)(GMainContext *context, gboolean is_running) {
    return LAZY_LIBRARY_CALL(libnm, g_main_loop_new)(context, is_running);
}

LAZY_LIBRARY_FORWARDER void (g_main_loop_quit)(GMainLoop *loop) {
    LAZY_LIBRARY_CALL(libnm, g_main_loop_quit)(loop);
}

LAZY_LIBRARY_FORWARDER GMainLoop *(g_main_loop_ref)(GMainLoop *loop) {
    return LAZY_LIBRARY_CALL(libnm, g_main_loop_ref)(loop);
}

LAZY_LIBRARY_FORWARDER void (g_main_loop_run)(GMainLoop *loop) {
    LAZY_LIBRARY_CALL(libnm, g_main_loop_run)(loop);
}

LAZY_LIBRARY_FORWARDER void (g_main_loop_unref)(GMainLoop *loop) {
    LAZY_LIBRARY_CALL(libnm, g_main_loop_unref)(loop);
}

LAZY_LIBRARY_FORWARDER GObject *(g_object_new_with_properties)(GType object_type, guint n_properties, const char **names, const GValue *values) {
    return LAZY_LIBRARY_CALL(libnm, g_object_new_with_properties)(object_type, n_properties, names, values);
}

LAZY_LIBRARY_FORWARDER gpointer (g_object_ref)(gpointer object) {
    return LAZY_LIBRARY_CALL(libnm, g_object_ref)(object);
}

LAZY_LIBRARY_FORWARDER void (g_object_unref)(gpointer object) {
    LAZY_LIBRARY_CALL(libnm, g_object_unref)(object);
}

LAZY_LIBRARY_FORWARDER gulong (g_signal_connect_data)(gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data, GClosureNotify destroy_data, guint connect_flags) {
    return LAZY_LIBRARY_CALL(libnm, g_signal_connect_data)(instance, detailed_signal, c_handler, data, destroy_data, connect_flags);
}

LAZY_LIBRARY_FORWARDER void (g_signal_handler_disconnect)(gpointer instance, gulong handler_id) {
    LAZY_LIBRARY_CALL(libnm, g_signal_handler_disconnect)(instance, handler_id);
}

LAZY_LIBRARY_FORWARDER guint (g_source_attach)(GSource *source, GMainContext *context) {
    return LAZY_LIBRARY_CALL(libnm, g_source_attach)(source, context);
}

LAZY_LIBRARY_FORWARDER void (g_source_destroy)(GSource *source) {
    LAZY_LIBRARY_CALL(libnm, g_source_destroy)(source);
}

LAZY_LIBRARY_FORWARDER void (g_source_set_callback)(GSource *source, GSourceFunc func, gpointer data, GDestroyNotify notify) {
    LAZY_LIBRARY_CALL(libnm, g_source_set_callback)(source, func, data, notify);
}

LAZY_LIBRARY_FORWARDER void (g_source_set_priority)(GSource *source, gint priority) {
    LAZY_LIBRARY_CALL(libnm, g_source_set_priority)(source, priority);
}

LAZY_LIBRARY_FORWARDER void (g_source_unref)(GSource *source) {
    LAZY_LIBRARY_CALL(libnm, g_source_unref)(source);
}

LAZY_LIBRARY_FORWARDER GThread *(g_thread_new)(const gchar *name, GThreadFunc func, gpointer data) {
    return LAZY_LIBRARY_CALL(libnm, g_thread_new)(name, func, data);
}

LAZY_LIBRARY_FORWARDER void (g_thread_unref)(GThread *thread) {
    LAZY_LIBRARY_CALL(libnm, g_thread_unref)(thread);
}

LAZY_LIBRARY_FORWARDER GSource *(g_timeout_source_new)(guint interval) {
    return LAZY_LIBRARY_CALL(libnm, g_timeout_source_new)(interval);
}

LAZY_LIBRARY_FORWARDER gboolean (g_type_check_instance_is_a)(GTypeInstance *instance, GType iface_type) {
    return LAZY_LIBRARY_CALL(libnm, g_type_check_instance_is_a)(instance, iface_type);
}

LAZY_LIBRARY_FORWARDER GValue *(g_value_init)(GValue *value, GType g_type) {
    return LAZY_LIBRARY_CALL(libnm, g_value_init)(value, g_type);
}

LAZY_LIBRARY_FORWARDER void (g_value_set_object)(GValue *value, gpointer v_object) {
    LAZY_LIBRARY_CALL(libnm, g_value_set_object)(value, v_object);
}

LAZY_LIBRARY_FORWARDER void (g_value_unset)(GValue *value) {
    LAZY_LIBRARY_CALL(libnm, g_value_unset)(value);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_get_child_value)(GVariant *value, gsize index_) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_get_child_value)(value, index_);
}

LAZY_LIBRARY_FORWARDER guint32 (g_variant_get_uint32)(GVariant *value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_get_uint32)(value);
}

LAZY_LIBRARY_FORWARDER gboolean (g_variant_is_container)(GVariant *value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_is_container)(value);
}

LAZY_LIBRARY_FORWARDER gboolean (g_variant_is_of_type)(GVariant *value, const GVariantType *type) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_is_of_type)(value, type);
}

LAZY_LIBRARY_FORWARDER gsize (g_variant_n_children)(GVariant *value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_n_children)(value);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_array)(const GVariantType *child_type, GVariant *const *children, gsize n_children) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_array)(child_type, children, n_children);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_boolean)(gboolean value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_boolean)(value);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_dict_entry)(GVariant *key, GVariant *value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_dict_entry)(key, value);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_fixed_array)(const GVariantType *element_type, gconstpointer elements, gsize n_elements, gsize element_size) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_fixed_array)(element_type, elements, n_elements, element_size);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_int32)(gint32 value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_int32)(value);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_string)(const gchar *string) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_string)(string);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_uint32)(guint32 value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_uint32)(value);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_new_variant)(GVariant *value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_new_variant)(value);
}

LAZY_LIBRARY_FORWARDER gchar *(g_variant_print)(GVariant *value, gboolean type_annotate) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_print)(value, type_annotate);
}

LAZY_LIBRARY_FORWARDER GVariant *(g_variant_ref_sink)(GVariant *value) {
    return LAZY_LIBRARY_CALL(libnm, g_variant_ref_sink)(value);
}

LAZY_LIBRARY_FORWARDER void (g_variant_unref)(GVariant *value) {
    LAZY_LIBRARY_CALL(libnm, g_variant_unref)(value);
}

LAZY_LIBRARY_FORWARDER const char *(nm_access_point_get_bssid)(NMAccessPoint *ap) {
    return LAZY_LIBRARY_CALL(libnm, nm_access_point_get_bssid)(ap);
}

LAZY_LIBRARY_FORWARDER int (nm_access_point_get_last_seen)(NMAccessPoint *ap) {
    return LAZY_LIBRARY_CALL(libnm, nm_access_point_get_last_seen)(ap);
}

LAZY_LIBRARY_FORWARDER GBytes *(nm_access_point_get_ssid)(NMAccessPoint *ap) {
    return LAZY_LIBRARY_CALL(libnm, nm_access_point_get_ssid)(ap);
}

LAZY_LIBRARY_FORWARDER guint8 (nm_access_point_get_strength)(NMAccessPoint *ap) {
    return LAZY_LIBRARY_CALL(libnm, nm_access_point_get_strength)(ap);
}

LAZY_LIBRARY_FORWARDER NMRemoteConnection *(nm_active_connection_get_connection)(NMActiveConnection *connection) {
    return LAZY_LIBRARY_CALL(libnm, nm_active_connection_get_connection)(connection);
}

LAZY_LIBRARY_FORWARDER const char *(nm_active_connection_get_id)(NMActiveConnection *connection) {
    return LAZY_LIBRARY_CALL(libnm, nm_active_connection_get_id)(connection);
}

LAZY_LIBRARY_FORWARDER guint (nm_active_connection_get_state)(NMActiveConnection *connection) {
    return LAZY_LIBRARY_CALL(libnm, nm_active_connection_get_state)(connection);
}

LAZY_LIBRARY_FORWARDER guint (nm_active_connection_get_state_reason)(NMActiveConnection *connection) {
    return LAZY_LIBRARY_CALL(libnm, nm_active_connection_get_state_reason)(connection);
}

LAZY_LIBRARY_FORWARDER void (nm_client_activate_connection_async)(NMClient *client, NMConnection *connection, NMDevice *device, const char *specific_object, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, nm_client_activate_connection_async)(client, connection, device, specific_object, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER NMActiveConnection *(nm_client_activate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_activate_connection_finish)(client, result, error);
}

LAZY_LIBRARY_FORWARDER void (nm_client_add_and_activate_connection2)(NMClient *client, NMConnection *partial, NMDevice *device, const char *specific_object, GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, nm_client_add_and_activate_connection2)(client, partial, device, specific_object, options, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER NMActiveConnection *(nm_client_add_and_activate_connection2_finish)(NMClient *client, GAsyncResult *result, GVariant **out_result, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_add_and_activate_connection2_finish)(client, result, out_result, error);
}

LAZY_LIBRARY_FORWARDER void (nm_client_add_and_activate_connection_async)(NMClient *client, NMConnection *partial, NMDevice *device, const char *specific_object, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, nm_client_add_and_activate_connection_async)(client, partial, device, specific_object, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER NMActiveConnection *(nm_client_add_and_activate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_add_and_activate_connection_finish)(client, result, error);
}

LAZY_LIBRARY_FORWARDER void (nm_client_deactivate_connection_async)(NMClient *client, NMActiveConnection *active, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, nm_client_deactivate_connection_async)(client, active, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER gboolean (nm_client_deactivate_connection_finish)(NMClient *client, GAsyncResult *result, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_deactivate_connection_finish)(client, result, error);
}

LAZY_LIBRARY_FORWARDER GQuark (nm_client_error_quark)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_error_quark)();
}

LAZY_LIBRARY_FORWARDER NMRemoteConnection *(nm_client_get_connection_by_uuid)(NMClient *client, const char *uuid) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_get_connection_by_uuid)(client, uuid);
}

LAZY_LIBRARY_FORWARDER const GPtrArray *(nm_client_get_devices)(NMClient *client) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_get_devices)(client);
}

LAZY_LIBRARY_FORWARDER gboolean (nm_client_get_nm_running)(NMClient *client) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_get_nm_running)(client);
}

LAZY_LIBRARY_FORWARDER GType (nm_client_get_type)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_get_type)();
}

LAZY_LIBRARY_FORWARDER const char *(nm_client_get_version)(NMClient *client) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_get_version)(client);
}

LAZY_LIBRARY_FORWARDER gboolean (nm_client_wireless_get_enabled)(NMClient *client) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_wireless_get_enabled)(client);
}

LAZY_LIBRARY_FORWARDER gboolean (nm_client_wireless_hardware_get_enabled)(NMClient *client) {
    return LAZY_LIBRARY_CALL(libnm, nm_client_wireless_hardware_get_enabled)(client);
}

LAZY_LIBRARY_FORWARDER const char *(nm_connection_get_id)(NMConnection *connection) {
    return LAZY_LIBRARY_CALL(libnm, nm_connection_get_id)(connection);
}

LAZY_LIBRARY_FORWARDER GQuark (nm_device_error_quark)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_error_quark)();
}

LAZY_LIBRARY_FORWARDER GType (nm_device_ethernet_get_type)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_ethernet_get_type)();
}

LAZY_LIBRARY_FORWARDER NMActiveConnection *(nm_device_get_active_connection)(NMDevice *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_get_active_connection)(device);
}

LAZY_LIBRARY_FORWARDER const char *(nm_device_get_iface)(NMDevice *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_get_iface)(device);
}

LAZY_LIBRARY_FORWARDER NMIPConfig *(nm_device_get_ip4_config)(NMDevice *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_get_ip4_config)(device);
}

LAZY_LIBRARY_FORWARDER guint (nm_device_get_state)(NMDevice *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_get_state)(device);
}

LAZY_LIBRARY_FORWARDER guint (nm_device_get_state_reason)(NMDevice *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_get_state_reason)(device);
}

LAZY_LIBRARY_FORWARDER const GPtrArray *(nm_device_wifi_get_access_points)(NMDeviceWifi *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_wifi_get_access_points)(device);
}

LAZY_LIBRARY_FORWARDER gint64 (nm_device_wifi_get_last_scan)(NMDeviceWifi *device) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_wifi_get_last_scan)(device);
}

LAZY_LIBRARY_FORWARDER GType (nm_device_wifi_get_type)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_wifi_get_type)();
}

LAZY_LIBRARY_FORWARDER gboolean (nm_device_wifi_request_scan_finish)(NMDeviceWifi *device, GAsyncResult *result, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_device_wifi_request_scan_finish)(device, result, error);
}

LAZY_LIBRARY_FORWARDER void (nm_device_wifi_request_scan_options_async)(NMDeviceWifi *device, GVariant *options, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, nm_device_wifi_request_scan_options_async)(device, options, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER const char *(nm_ip_address_get_address)(NMIPAddress *address) {
    return LAZY_LIBRARY_CALL(libnm, nm_ip_address_get_address)(address);
}

LAZY_LIBRARY_FORWARDER guint (nm_ip_address_get_prefix)(NMIPAddress *address) {
    return LAZY_LIBRARY_CALL(libnm, nm_ip_address_get_prefix)(address);
}

LAZY_LIBRARY_FORWARDER GPtrArray *(nm_ip_config_get_addresses)(NMIPConfig *config) {
    return LAZY_LIBRARY_CALL(libnm, nm_ip_config_get_addresses)(config);
}

LAZY_LIBRARY_FORWARDER const char *(nm_ip_config_get_gateway)(NMIPConfig *config) {
    return LAZY_LIBRARY_CALL(libnm, nm_ip_config_get_gateway)(config);
}

LAZY_LIBRARY_FORWARDER GQuark (nm_manager_error_quark)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_manager_error_quark)();
}

LAZY_LIBRARY_FORWARDER const char *(nm_object_get_path)(NMObject *object) {
    return LAZY_LIBRARY_CALL(libnm, nm_object_get_path)(object);
}

LAZY_LIBRARY_FORWARDER void (nm_remote_connection_delete_async)(NMRemoteConnection *connection, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data) {
    LAZY_LIBRARY_CALL(libnm, nm_remote_connection_delete_async)(connection, cancellable, callback, user_data);
}

LAZY_LIBRARY_FORWARDER gboolean (nm_remote_connection_delete_finish)(NMRemoteConnection *connection, GAsyncResult *result, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_remote_connection_delete_finish)(connection, result, error);
}

LAZY_LIBRARY_FORWARDER GQuark (nm_settings_error_quark)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_settings_error_quark)();
}

LAZY_LIBRARY_FORWARDER NMConnection *(nm_simple_connection_new_from_dbus)(GVariant *dict, GError **error) {
    return LAZY_LIBRARY_CALL(libnm, nm_simple_connection_new_from_dbus)(dict, error);
}

LAZY_LIBRARY_FORWARDER gint64 (nm_utils_get_timestamp_msec)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_utils_get_timestamp_msec)();
}

LAZY_LIBRARY_FORWARDER char *(nm_utils_uuid_generate)(void) {
    return LAZY_LIBRARY_CALL(libnm, nm_utils_uuid_generate)();
}
