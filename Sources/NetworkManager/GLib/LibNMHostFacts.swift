internal import CLibNM
import Glibc

/// The login name to own a temporary profile as, when running unprivileged; root needs no owner.
func unprivilegedUserName() -> String? {
    guard geteuid() != 0 else { return nil }
    return String(cString: g_get_user_name())
}

/// A fresh random connection UUID in NetworkManager's textual form.
func generateConnectionUUID() -> String {
    let uuid = nm_utils_uuid_generate()!
    defer { g_free(uuid) }
    return String(cString: uuid)
}
