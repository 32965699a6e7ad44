internal import CLibNM

/// Starting and ending activations. Each call returns when NetworkManager has *started* the work;
/// callers wait for the outcome with ``NMActivationTracker``.
extension LibNMClient {
    /// Adds the profile and activates it on `device`, towards `accessPoint` when it is a hotspot.
    ///
    /// With `volatile`, uses `AddAndActivateConnection2` with `persist=volatile` (the profile
    /// disappears when it goes down) and `bind-activation=dbus-client` (it goes down if ztprov
    /// vanishes). A service without that method (before 1.16) gets the plain call instead; the
    /// returned flag then says the caller must delete the profile itself. A `nil` activation means
    /// NetworkManager started one that ended before libnm could load it.
    nonisolated(nonsending) func addAndActivate(
        _ settings: NMConnectionSettings,
        device: LibNMDevice,
        accessPoint: LibNMAccessPoint?,
        volatile: Bool
    ) async throws -> (activation: LibNMActiveConnection?, isVolatile: Bool) {
        let partial = try simpleConnection(settings)
        if volatile {
            do {
                return (try await addAndActivate2(partial, device: device, accessPoint: accessPoint), true)
            } catch let error as GLibError where error.isVanishedObject {
                return (nil, true)
            } catch let error as GLibError where error.isUnknownMethod {
                // An older service that reports a newer version, or a mock; the plain call still works.
            } catch let error as GLibError {
                throw error.reported(during: "AddAndActivateConnection2")
            }
        }
        do {
            return (try await addAndActivate1(partial, device: device, accessPoint: accessPoint), false)
        } catch let error as GLibError where error.isVanishedObject {
            return (nil, false)
        } catch let error as GLibError {
            throw error.reported(during: "AddAndActivateConnection")
        }
    }

    /// Activates a stored profile on `device`, letting NetworkManager pick any access point.
    nonisolated(nonsending) func activate(_ profile: LibNMRemoteConnection, device: LibNMDevice) async throws
        -> LibNMActiveConnection
    {
        do {
            return try await gAsyncCall("ActivateConnection") { callback, data in
                nm_client_activate_connection_async(
                    object.opaque, profile.object.opaque, device.object.opaque, nil, nil, callback, data)
            } finish: { [object] _, result in
                var error: UnsafeMutablePointer<GError>?
                guard let activation = nm_client_activate_connection_finish(object.opaque, result, &error) else {
                    throw GLibError(taking: error)
                }
                return LibNMActiveConnection(GObjectRef(adopting: UnsafeMutableRawPointer(activation)))
            }
        } catch let error as GLibError {
            throw error.reported(during: "ActivateConnection")
        }
    }

    /// Asks NetworkManager to take the activation down; one that is already inactive counts as done.
    nonisolated(nonsending) func deactivate(_ activation: LibNMActiveConnection) async throws {
        do {
            try await gAsyncCall("DeactivateConnection") { callback, data in
                nm_client_deactivate_connection_async(object.opaque, activation.object.opaque, nil, callback, data)
            } finish: { [object] _, result in
                var error: UnsafeMutablePointer<GError>?
                guard nm_client_deactivate_connection_finish(object.opaque, result, &error) != 0 else {
                    throw GLibError(taking: error)
                }
            }
        } catch let error as GLibError where error.isConnectionNotActive {
            return
        } catch let error as GLibError {
            throw error.reported(during: "DeactivateConnection")
        }
    }

    // The mutating calls take no cancellable: a call cancelled in flight may still have acted in
    // NetworkManager, and its reply is what tells the joiner what to clean up.

    private nonisolated(nonsending) func addAndActivate2(
        _ partial: GObjectRef,
        device: LibNMDevice,
        accessPoint: LibNMAccessPoint?
    ) async throws -> LibNMActiveConnection {
        let options = GVariantRef(
            sinking: GVariantMaking.dictionary([
                "persist": g_variant_new_string("volatile"),
                "bind-activation": g_variant_new_string("dbus-client"),
            ])
        )
        return try await gAsyncCall("AddAndActivateConnection2") { callback, data in
            nm_client_add_and_activate_connection2(
                object.opaque, partial.opaque, device.object.opaque, accessPoint?.path, options.pointer, nil, callback,
                data)
        } finish: { [object] _, result in
            var error: UnsafeMutablePointer<GError>?
            guard let activation = nm_client_add_and_activate_connection2_finish(object.opaque, result, nil, &error)
            else {
                throw GLibError(taking: error)
            }
            return LibNMActiveConnection(GObjectRef(adopting: UnsafeMutableRawPointer(activation)))
        }
    }

    private nonisolated(nonsending) func addAndActivate1(
        _ partial: GObjectRef,
        device: LibNMDevice,
        accessPoint: LibNMAccessPoint?
    ) async throws -> LibNMActiveConnection {
        try await gAsyncCall("AddAndActivateConnection") { callback, data in
            nm_client_add_and_activate_connection_async(
                object.opaque, partial.opaque, device.object.opaque, accessPoint?.path, nil, callback, data)
        } finish: { [object] _, result in
            var error: UnsafeMutablePointer<GError>?
            guard let activation = nm_client_add_and_activate_connection_finish(object.opaque, result, &error) else {
                throw GLibError(taking: error)
            }
            return LibNMActiveConnection(GObjectRef(adopting: UnsafeMutableRawPointer(activation)))
        }
    }

    /// libnm's in-memory profile built from the settings; libnm rejects values of the wrong type here.
    private func simpleConnection(_ settings: NMConnectionSettings) throws -> GObjectRef {
        try Self.simpleConnection(GVariantMaking.connection(settings))
    }

    static func simpleConnection(_ variant: GVariantRef) throws -> GObjectRef {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = nm_simple_connection_new_from_dbus(variant.pointer, &error) else {
            throw NetworkManagerError.operationFailed(
                operation: "building the hotspot profile", message: GLibError(taking: error).message)
        }
        return GObjectRef(adopting: UnsafeMutableRawPointer(connection))
    }
}
