internal import CLibNM
import Glibc

/// The login name to own a temporary profile as, when running unprivileged; root needs no owner.
func unprivilegedUserName() -> String? {
    guard geteuid() != 0 else { return nil }
    return String(cString: g_get_user_name())
}
