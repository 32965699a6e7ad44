// swift-tools-version: 6.1
import PackageDescription

/// In the release build each function, and each part an async function is split into, gets a section of
/// its own, so the link can lay out the functions a run needs next to each other (`footprintLinkerSettings`).
let functionSections: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))
]

/// Settings every target shares.
///
/// Explicit existentials, explicit imports, and imports that stay internal unless a module re-exports
/// a type on purpose. With `CI` set (CI sets it, and `.ci/run` sets it for a run by hand) warnings are
/// errors; the flag lives here rather than on the command line so the build `.ci/run` checks is the one
/// `swift test` reuses.
let strictSettings: [SwiftSetting] =
    [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ] + functionSections + (Context.environment["CI"] != nil ? [.unsafeFlags(["-warnings-as-errors"])] : [])

/// Whole-module optimisation in every build, for a target whose thread discipline the optimiser can
/// change: its executor-hop elimination and generic specialisation only run optimised, so the debug
/// build `swift test` uses would otherwise never see the code as it ships.
let optimisedAsShipped: [SwiftSetting] = [.unsafeFlags(["-O", "-whole-module-optimization", "-num-threads", "2"])]

/// How `ztprov` is linked to keep start-up and resident memory small (Tests/Benchmarks/README.md, Footprint).
///
/// With `--static-swift-stdlib` the executable carries about 55,000 relative relocations (Swift metadata
/// pointers); lld's packed form (`DT_RELR`, glibc 2.36+) stores them in 10 KB instead of 1.3 MB, all of
/// which the loader reads at every start. The toolchain's static-link options export every Swift symbol
/// of ours (`-export-dynamic`); nothing looks them up, yet their 1 MB table is searched and mapped.
///
/// The release build also places the functions `--help` and `ble` run next to each other
/// (`Sources/ztprov/Linking/ztprov.order`, written by `Tests/Benchmarks/make-symbol-order`): the kernel maps up to 64 KiB
/// of the executable around each page a process touches, so scattered start-up code kept most of the
/// 13 MB of code resident. A name the order no longer matches only costs locality, never correctness.
/// The build does not track the order file: after rewriting it, relink (`make-symbol-order` removes the binary).
/// It links the C++ runtime statically too (`Sources/ztprov/Linking/static-libstdc++`), of which the Swift runtime uses
/// a small part.
let footprintLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"],
        .when(platforms: [.linux])),
    .unsafeFlags(
        [
            "-L\(Context.packageDirectory)/Sources/ztprov/Linking/static-libstdc++",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/ztprov/Linking/ztprov.order",
            "-Xlinker", "--no-warn-symbol-ordering",
        ],
        .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "ztprov",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ztprov", targets: ["ztprov"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Without its default traits: "BinaryDelimitedStreams" imports full Foundation (ICU) for
        // InputStream/OutputStream, which ztprov never uses.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
        // HTTP/1 and the event loop only, for `report --serve`: a small part of SwiftNIO, no TLS, no HTTP/2
        // (Tests/Benchmarks/README.md, Build time).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // MARK: Executable: parse, wire, print

        .executableTarget(
            name: "ztprov",
            dependencies: [
                "Provisioning",
                "DeviceEmulator",
                "BluFi",
                "Improv",
                "Protocomm",
                "ZhitingLAN",
                "CryptoPrimitives",
                "Transports",
                "BlueZ",
                "DBus",
                "HCI",
                "NetworkManager",
                "Sockets",
                "Records",
                "JSONWriting",
                "SQLiteRecordStore",
                "PostgresRecordStore",
                "HTTPServing",
                "StringEssentials",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Linking"],
            swiftSettings: strictSettings,
            linkerSettings: footprintLinkerSettings
        ),

        // MARK: Orchestration: flows, user-facing errors

        .target(
            name: "Provisioning",
            dependencies: [
                "BluFi",
                "Improv",
                "Protocomm",
                "ZhitingLAN",
                "Transports",
                "CryptoPrimitives",
                "Records",
                "StringEssentials",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Pure protocol cores: bytes and values in, bytes, values and actions out

        .target(
            name: "BluFi",
            dependencies: ["CryptoPrimitives"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Protocomm",
            dependencies: [
                "CryptoPrimitives",
                "JSONWriting",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Protos"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ZhitingLAN",
            dependencies: ["CryptoPrimitives", "JSONWriting"],
            swiftSettings: strictSettings
        ),

        /// The one JSON string escaper and the ordered JSON value, for the JSON whose key order matters.
        .target(
            name: "JSONWriting",
            swiftSettings: strictSettings
        ),
        .target(
            name: "Improv",
            swiftSettings: strictSettings
        ),
        /// The few string operations FoundationEssentials lacks, so no target needs full Foundation (ICU).
        .target(
            name: "StringEssentials",
            swiftSettings: strictSettings
        ),

        /// Waits on file descriptors that end when the task is cancelled, for the adapters that block in `poll()`.
        .target(
            name: "DescriptorWaits",
            swiftSettings: strictSettings
        ),

        // MARK: Ports: the protocols flows and adapters meet at

        .target(
            name: "Transports",
            swiftSettings: strictSettings
        ),

        // MARK: Records: what the factory line keeps of each attempt, and the store port

        .target(
            name: "Records",
            dependencies: ["JSONWriting", "StringEssentials"],
            swiftSettings: strictSettings
        ),

        // MARK: Adapters: one system facility each

        .target(
            name: "Sockets",
            dependencies: [
                "Transports", "CryptoPrimitives", "DescriptorWaits", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DBus",
            dependencies: ["CDBus", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BlueZ",
            dependencies: ["DBus", "Transports", "StringEssentials", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "HCI",
            dependencies: ["CBluetooth"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "NetworkManager",
            dependencies: ["CLibNM", "DBus", "Transports", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings + optimisedAsShipped
        ),
        .target(
            name: "SQLiteRecordStore",
            dependencies: ["CSQLite", "Records", "DescriptorWaits"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PostgresRecordStore",
            dependencies: ["CLibPQ", "Records", "StringEssentials", "DescriptorWaits"],
            swiftSettings: strictSettings
        ),

        /// The HTTP server `report --serve` runs; the one target that imports SwiftNIO.
        .target(
            name: "HTTPServing",
            dependencies: [
                "Transports",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),

        // MARK: Device emulator: device sides and in-memory ports

        .target(
            name: "DeviceEmulator",
            dependencies: ["BluFi", "Protocomm", "ZhitingLAN", "Improv", "Transports", "CryptoPrimitives"],
            swiftSettings: strictSettings
        ),

        // MARK: Crypto facade: the only door to OpenSSL

        .target(
            name: "CryptoPrimitives",
            dependencies: ["COpenSSL"],
            swiftSettings: strictSettings
        ),

        // MARK: C system libraries, one Swift target each

        // libcrypto is linked; libssl, which only an `https://` SC URL needs, is loaded on first use, so the
        // other commands do not map it: a C target of forwarders for libssl's functions.
        .target(name: "COpenSSL", dependencies: ["CLazyLibrary"], linkerSettings: [.linkedLibrary("crypto")]),
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // Headers only: HCI calls the kernel's socket interface, no libbluetooth function, so linking
        // libbluetooth would only make every command map it.
        .systemLibrary(
            name: "CBluetooth",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // libnm is loaded on first use, so only the commands that join a hotspot map it (and GLib, GObject
        // and GIO under it): a C target of forwarders, not a link. Its header declares what it forwards, so
        // neither it nor a module importing it needs libnm's headers.
        .target(name: "CLibNM", dependencies: ["CLazyLibrary"]),
        // libsqlite3 is loaded on first use, so only the commands that keep records (`batch`, `report`) map
        // it: a C target of forwarders, not a link.
        .target(name: "CSQLite", dependencies: ["CLazyLibrary"]),
        // libpq is loaded on first use, so only the commands that keep PostgreSQL records map it
        // (and the Kerberos, LDAP and SASL libraries it needs): a C target of forwarders, not a link.
        .target(name: "CLibPQ", dependencies: ["CLazyLibrary"]),
        // Opens a library on first use for the forwarder targets above; it owns no library itself.
        .target(name: "CLazyLibrary"),

        // MARK: Tests

        .target(
            name: "TestSupport",
            dependencies: ["Records"],
            swiftSettings: strictSettings
        ),

        .testTarget(
            name: "CryptoPrimitivesTests",
            dependencies: ["CryptoPrimitives", "TestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BluFiTests",
            dependencies: ["BluFi", "CryptoPrimitives", "TestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ProtocommTests",
            dependencies: ["Protocomm", "CryptoPrimitives", "TestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ZhitingLANTests",
            dependencies: ["ZhitingLAN", "CryptoPrimitives", "TestSupport"],
            resources: [.copy("Vectors")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ImprovTests",
            dependencies: ["Improv", "DeviceEmulator", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BlueZTests",
            dependencies: ["BlueZ", "DBus", "CDBus", "Transports", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HCITests",
            dependencies: ["HCI"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "StringEssentialsTests",
            dependencies: ["StringEssentials"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "JSONWritingTests",
            dependencies: ["JSONWriting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TransportsTests",
            dependencies: ["Transports"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "NetworkManagerTests",
            dependencies: ["NetworkManager", "CLibNM", "Transports", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ProvisioningTests",
            dependencies: [
                "Provisioning", "DeviceEmulator", "BluFi", "Improv", "Protocomm", "ZhitingLAN", "Transports", "Records",
                "CryptoPrimitives", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SocketsTests",
            dependencies: [
                "Sockets", "Transports", "TestSupport", "Provisioning", "DeviceEmulator", "Protocomm", "ZhitingLAN",
                "CryptoPrimitives", "DescriptorWaits", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RecordsTests",
            dependencies: ["Records", "TestSupport", "CryptoPrimitives"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SQLiteRecordStoreTests",
            dependencies: ["SQLiteRecordStore", "Records", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PostgresRecordStoreTests",
            dependencies: ["PostgresRecordStore", "Records", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "ztprov", "Provisioning", "ZhitingLAN", "Transports", "BlueZ", "DBus", "BluFi", "Improv", "Records",
                "SQLiteRecordStore", "JSONWriting", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["HelpSnapshots"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            // The tests run the `ztprov` executable: this dependency makes `swift test` build it.
            dependencies: [
                "TestSupport", "ztprov", "Sockets", "Transports", "ZhitingLAN", "CryptoPrimitives", "Records",
                "SQLiteRecordStore", "PostgresRecordStore",
            ],
            swiftSettings: strictSettings
        ),
        // The soak (Tests/Benchmarks/run-benchmarks --only soak): many provisionings in one process.
        .target(name: "SoakMetrics", path: "Tests/Soak/SoakMetrics", swiftSettings: strictSettings),
        .executableTarget(
            name: "ztprov-soak",
            dependencies: [
                "SoakMetrics", "Provisioning", "DeviceEmulator", "BluFi", "Protocomm", "Transports", "CryptoPrimitives",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Soak/ztprov-soak",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SoakTests", dependencies: ["SoakMetrics"], path: "Tests/Soak/SoakTests",
            swiftSettings: strictSettings),
    ] + fuzzTargets
)

// MARK: Fuzzing

/// libFuzzer harnesses, declared only when `ZTPROV_FUZZ` is set (Tests/Fuzz/run-fuzzers sets it), so
/// normal builds and `swift test` never see them. The script builds them with `--sanitize=fuzzer`.
var fuzzTargets: [Target] {
    guard Context.environment["ZTPROV_FUZZ"] != nil else { return [] }
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("BluFiFrameDecoderFuzzer", ["BluFi", "CryptoPrimitives"]),
        ("BluFiClientFuzzer", ["BluFi", "CryptoPrimitives"]),
        ("ProtocommSessionFuzzer", ["Protocomm", "ProtocommFuzzSupport"]),
        ("ProtocommMessageFuzzer", ["Protocomm", "ProtocommFuzzSupport"]),
        ("ZhitingPacketFuzzer", ["ZhitingLAN", "CryptoPrimitives"]),
        ("HTTPResponseParserFuzzer", ["Sockets"]),
    ]
    let support: [Target] = [
        .target(name: "FuzzSupport", path: "Tests/Fuzz/FuzzSupport", swiftSettings: strictSettings),
        .target(
            name: "ProtocommFuzzSupport", dependencies: ["Protocomm", "CryptoPrimitives"],
            path: "Tests/Fuzz/ProtocommFuzzSupport", swiftSettings: strictSettings),
    ]
    return support
        + harnesses.map { harness in
            .executableTarget(
                name: harness.name,
                dependencies: harness.dependencies + ["FuzzSupport"],
                path: "Tests/Fuzz/\(harness.name)",
                swiftSettings: strictSettings + [.unsafeFlags(["-parse-as-library"])]
            )
        }
}
