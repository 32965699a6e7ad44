internal import CLibNM

/// An owned, non-floating `GVariant`, released when this goes away.
///
/// Variants are built floating; sinking them here makes ownership the same whether or not the libnm
/// function they are passed to sinks them itself.
final class GVariantRef {
    let pointer: OpaquePointer

    init(sinking floating: OpaquePointer) {
        pointer = g_variant_ref_sink(floating)
    }

    /// GLib's text form, such as `{'ipv4': {'method': <'auto'>}}`; tests compare it exactly.
    var text: String {
        let printed = g_variant_print(pointer, 1)!
        defer { g_free(printed) }
        return String(cString: printed)
    }

    deinit {
        g_variant_unref(pointer)
    }
}

/// Builders for the few variant shapes NetworkManager's API takes, without GLib's variadic calls.
enum GVariantMaking {
    /// `a{sa{sv}}` for a connection profile, settings and properties sorted by name.
    static func connection(_ settings: NMConnectionSettings) -> GVariantRef {
        let sections = settings.settings.keys.sorted().map { name in
            (name, dictionary(settings.settings[name]!.mapValues(value)))
        }
        return GVariantRef(
            sinking: array(of: "{sa{sv}}", sections.map { g_variant_new_dict_entry(g_variant_new_string($0), $1) }))
    }

    /// `a{sv}`, the shape of option dictionaries and of one profile setting.
    static func dictionary(_ entries: [String: OpaquePointer]) -> OpaquePointer {
        array(
            of: "{sv}",
            entries.keys.sorted().map { key in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(entries[key]!))
            }
        )
    }

    /// One property value with the D-Bus type NetworkManager expects.
    static func value(_ value: NMConnectionSettings.Value) -> OpaquePointer {
        switch value {
        case .string(let string): g_variant_new_string(string)
        case .bool(let bool): g_variant_new_boolean(bool ? 1 : 0)
        case .int32(let number): g_variant_new_int32(number)
        case .uint32(let number): g_variant_new_uint32(number)
        case .bytes(let bytes): byteArray(bytes)
        case .strings(let strings): array(of: "s", strings.map { g_variant_new_string($0) })
        }
    }

    /// `ay`, as SSIDs and hardware addresses travel.
    static func byteArray(_ bytes: [UInt8]) -> OpaquePointer {
        "y".withCString { byteType in
            bytes.withUnsafeBufferPointer { buffer in
                g_variant_new_fixed_array(CLibNM_variant_type(byteType), buffer.baseAddress, gsize(buffer.count), 1)
            }
        }
    }

    /// An array of `children`, all of type `elementType`; GLib takes over their floating references.
    static func array(of elementType: String, _ children: [OpaquePointer?]) -> OpaquePointer {
        var children = children
        // The type string must outlive the call, so it is not passed as a temporary conversion.
        return elementType.withCString { type in
            g_variant_new_array(CLibNM_variant_type(type), &children, gsize(children.count))
        }
    }
}
