// swift-tools-version:6.0
import PackageDescription

/// A C library wrapped as a system-library target: a folder with `module.modulemap` and `shim.h`.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

/// swift-system's `FileDescriptor`, `Errno` and `Stat`, for the modules at the C boundary.
let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")

/// The organizer's pages (Sources/CheckinServer/Web/Templates) and their stylesheet and script, in the binary.
let webTemplates = [
    "account", "confirm", "dashboard", "dashboard-live", "devices", "double-entries", "event-nav", "events",
    "forbidden", "guest-edit", "guests", "import-preview", "layout", "lists", "monitor", "monitor-live", "no-shows",
    "not-found", "pass", "pass-missing", "password-new", "password-reset", "sign-in",
]
let webResources: [Resource] =
    webTemplates.map { .embedInCode("Web/Templates/\($0).mustache") } + [
        .embedInCode("Web/Assets/style.css"), .embedInCode("Web/Assets/live.js"),
    ]

/// The pixel-crunching modules (decoding, scaling and drawing frames, the synthetic door scenes) optimized in the
/// debug build too: unoptimized, they took most of the test run's CPU (a profile of a whole-suite run on 2 cores:
/// scene rendering, decoding and the generic code they call), and every other test waited for them.
let optimizedInTests: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The executables carry the Swift runtime (built in, `-static-stdlib`) in every configuration: a binary needs only
/// Debian's own libraries, so the debug build's binaries can be packaged and booted in QEMU as the release build's
/// are. The modules are compiled against the shared Foundation (the tests need it), so Foundation's static
/// libraries are named here, in one group: `-static-stdlib` at the link alone left CoreFoundation unresolved. No
/// test target may depend on an executable target: its linker settings would reach the test bundle, which links
/// the standard library dynamically (Swift Testing has no static build).
let staticStandardLibrary: [LinkerSetting] = [
    .unsafeFlags([
        "-static-stdlib", "-Xlinker", "--start-group", "-lFoundation", "-lFoundationEssentials",
        "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims",
        "-l_FoundationCollections", "-lswiftSynchronization", "-lswiftDispatch", "-Xlinker", "--end-group",
    ])
]

let package = Package(
    name: "qr-checkin-kiosk",
    platforms: [.macOS(.v14)],
    products: [
        // What the Debian packages ship (scripts/build-debs.sh).
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "kioskctl", targets: ["kioskctl"]),
        .executable(name: "checkin-server", targets: ["checkin-server"]),
        // The developer's tool (demo events, golden door images), never packaged: the one binary that links the
        // synthetic scenes.
        .executable(name: "kiosk-demo", targets: ["kiosk-demo"]),
        // For the benchmarks' own package (Benchmarks/) only, which takes the modules from this folder.
        .library(
            name: "ModulesForBenchmarks",
            targets: [
                "PassFormat", "DedicatedThreads", "KioskCore", "Cryptography", "KioskDecoding", "ImageFiles",
                "QREncoding", "KioskStore", "KioskDisplay", "KioskCapture", "KioskFramebuffer", "KioskSync",
                "KioskPeers", "KioskRuntime", "KioskScenes", "WireAPI", "CheckinCore", "CheckinSQLite",
                "CheckinPostgres", "CheckinWebhooks", "CheckinAdmin", "CheckinServer", "SignedRecords", "GrayImage",
                "SystemCalls",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.4.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.20.0"),
        // The doors' LAN links: P-256 peer keys and the self-signed certificates that carry their credentials.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        // The server's /metrics: swift-metrics' API, Prometheus's text format.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.0.0"),
        // Tests only: reads docs/api/openapi.yaml for the API contract test.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Tests only: child processes awaited without blocking a thread, both pipes read at once.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
    ],
    targets: [
        // C libraries, each behind a thin shim.
        systemLibrary("CZBar", pkgConfig: "zbar", apt: ["libzbar-dev"]),
        systemLibrary("CQRencode", pkgConfig: "libqrencode", apt: ["libqrencode-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("CTurboJPEG", pkgConfig: "libturbojpeg", apt: ["libturbojpeg0-dev"]),
        systemLibrary("CV4L2", pkgConfig: "libv4l2", apt: ["libv4l-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        systemLibrary("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        // zxing-cpp is C++: a compiled shim gives it a C interface (Sources/CZXing/include/CZXing.h).
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing")]),
        // Kernel headers only (linux/fb.h): no library to link.
        .systemLibrary(name: "CLinuxFramebuffer", path: "Sources/CLinuxFramebuffer"),

        // The pass format the kiosk and the server share: tenant, event and key ids, guest codes (base32), the
        // signed pass token and its parser, kiosk versions. No C, no I/O.
        .target(name: "PassFormat"),
        // RFC 4180 CSV with its encoding checks: the one reader of the kiosk's roster and the server's guest import.
        .target(name: "CSVReading"),
        .target(name: "DedicatedThreads"),
        // Numbers from outside the process (headers, queries, peers' messages) parsed into the ranges their
        // arithmetic needs, and instants a sender states checked against the clock, without trapping. No C, no I/O.
        .target(name: "BoundedNumbers"),

        // Shared by both halves (neutral: neither the kiosk's nor the server's). The records the server signs and
        // the doors check (a door's LAN credential, a guest row, a revocation), laid out byte for byte; and the
        // 8-bit gray image that the decoder, the image files and the QR renderer pass between them. No C, no I/O.
        .target(name: "SignedRecords", dependencies: ["BoundedNumbers", "PassFormat"]),
        .target(name: "GrayImage"),
        // The rules of check-in lists (ticket types, opening window, entries in all and per day, minutes between,
        // re-entry after an exit), decided by the same code at the door and on the server (issue 51). No C, no I/O.
        .target(name: "EntryRules"),
        // The HTTP API's bodies as both ends read and write them (docs/SYNC.md, docs/api/openapi.yaml): the kiosk
        // is its client, the server its one implementation. Plain Swift, no dependencies.
        .target(name: "WireAPI"),

        // The domain: verdicts, roster, queue, the pipeline and its protocols. No C, no I/O.
        .target(name: "KioskCore", dependencies: ["BoundedNumbers", "PassFormat", "SignedRecords", "GrayImage"]),

        // The C boundary shared by the adapters: the one syscall helper (EINTR, EAGAIN, the call's name, errno
        // as swift-system's `Errno`) and the safe regular-file reader.
        .target(name: "SystemCalls", dependencies: [systemPackage]),

        // Adapters, one per outside world. Cryptography, ImageFiles and QREncoding are neutral too: the server
        // signs, renders and reads with them as the kiosk does.
        .target(
            name: "Cryptography",
            dependencies: [
                "PassFormat", "SystemCalls", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        .target(
            name: "KioskDecoding", dependencies: ["GrayImage", "KioskCore", "CZBar", "CZXing"],
            swiftSettings: optimizedInTests),
        .target(
            name: "ImageFiles", dependencies: ["GrayImage", "SystemCalls", systemPackage, "CPNG", "CTurboJPEG"],
            swiftSettings: optimizedInTests),
        .target(name: "QREncoding", dependencies: ["GrayImage", "CQRencode"], swiftSettings: optimizedInTests),
        // The verdicts' tones through ALSA, on a thread of their own.
        .target(
            name: "KioskSound",
            dependencies: ["KioskCore", "CALSA", "DedicatedThreads", .product(name: "Logging", package: "swift-log")]),
        // RFC 4180 CSV with encoding checks, and the roster's columns: the kiosk's roster import (and the fuzzer).
        .target(name: "KioskCSV", dependencies: ["SignedRecords", "PassFormat", "KioskCore", "CSVReading"]),
        .target(
            name: "KioskStore",
            dependencies: [
                "SignedRecords",
                "PassFormat",
                "KioskCore", "KioskCSV", "Cryptography", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .target(name: "KioskDisplay", dependencies: ["KioskCore"]),
        .target(name: "KioskCapture", dependencies: ["GrayImage", "KioskCore", "SystemCalls", systemPackage, "CV4L2"]),
        .target(
            name: "KioskFramebuffer",
            dependencies: [
                "SignedRecords", "GrayImage",
                "KioskCore", "SystemCalls", systemPackage, "ImageFiles", "CFreeType", "CLinuxFramebuffer",
            ],
            swiftSettings: optimizedInTests),

        // The kiosk's sync with the check-in server: the API client (AsyncHTTPClient, TLS against the
        // configured CA), the queue uploader and the sync worker service.
        .target(
            name: "KioskSync",
            dependencies: [
                "SignedRecords",
                "BoundedNumbers", "PassFormat",
                "KioskCore", "KioskStore", "WireAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // Doors that know each other without the internet (docs/SYNC.md, "Between doors"): discovery by UDP
        // multicast, mutual TLS 1.3 whose certificates carry the server's peer credentials, the items' exchange.
        .target(
            name: "KioskPeers",
            dependencies: [
                "SignedRecords",
                "BoundedNumbers", "PassFormat", "KioskCore", "KioskStore", "Cryptography",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // Composition: builds a door from a configuration; shared by the executables and the tests.
        .target(
            name: "KioskRuntime",
            dependencies: [
                "GrayImage",
                "PassFormat",
                "KioskCore", "SystemCalls", "Cryptography", "KioskDecoding", "ImageFiles", "QREncoding", "KioskStore",
                "KioskDisplay", "KioskCapture", "KioskFramebuffer", "KioskSync", "KioskSound", "KioskPeers",
                "DedicatedThreads",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ],
            // The hardware-in-the-loop test's stalled door loop (DoorFault.swift): debug builds only, never in a
            // shipped binary.
            swiftSettings: [.define("KIOSK_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        // Test support: the package's executables run as processes, the tests' PostgreSQL.
        .target(
            name: "TestSupport",
            dependencies: ["DedicatedThreads", .product(name: "Subprocess", package: "swift-subprocess")],
            path: "Sources/TestSupport"),
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                "TestSupport", "DedicatedThreads", "CheckinPostgres", "CheckinCore",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]),
        // Synthetic door scenes (distortions) and fixture events: the tests', the benchmarks' and kiosk-demo's.
        .target(
            name: "KioskScenes",
            dependencies: [
                "SignedRecords", "GrayImage", "PassFormat", "KioskCore", "Cryptography", "QREncoding", "ImageFiles",
                "KioskDecoding",
            ],
            swiftSettings: optimizedInTests),

        // The check-in server: the domain and its storage protocols (no C, no I/O), the SQLite repository on GRDB,
        // the PostgreSQL one on postgres-nio, the Hummingbird application.
        .target(name: "CheckinCore", dependencies: ["PassFormat", "CSVReading", "EntryRules"]),
        .target(
            name: "CheckinSQLite",
            dependencies: [
                "PassFormat", "CheckinCore", "EntryRules", "SystemCalls", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "CheckinPostgres",
            dependencies: [
                "PassFormat", "EntryRules",
                "CheckinCore", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Standard Webhooks: verifying the organizer's guest webhooks, signing the server's own.
        .target(name: "CheckinWebhooks", dependencies: ["BoundedNumbers", "Cryptography"]),
        // The organizer's use cases (tenants, events, keys, organizers, guests, exports, secrets at rest), called by
        // the HTTP layer and by the command line alike; no HTTP here.
        .target(
            name: "CheckinAdmin",
            dependencies: [
                "PassFormat", "CheckinCore", "EntryRules", "WireAPI", "CheckinWebhooks", "Cryptography", "SystemCalls",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .target(
            name: "CheckinServer",
            dependencies: [
                "CheckinAdmin", "EntryRules",
                "BoundedNumbers", "PassFormat",
                "WireAPI", "CheckinCore", "CheckinWebhooks", "SignedRecords", "Cryptography", "QREncoding",
                "ImageFiles", "SystemCalls",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: webResources
        ),

        // E-mail to an SMTP relay through libcurl: the MIME message (HTML, text, inline QR image) and its sending.
        .target(name: "CheckinMail", dependencies: ["CCurl", "CheckinCore", "DedicatedThreads"]),

        // Executables: parse arguments, wire adapters.
        .executableTarget(
            name: "kiosk",
            dependencies: [
                "KioskDisplay",
                "KioskCore",
                "KioskRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: staticStandardLibrary
        ),
        .executableTarget(
            name: "kioskctl",
            dependencies: [
                "Cryptography", "ImageFiles", "QREncoding",
                "KioskCore",
                "PassFormat",
                "KioskRuntime", "KioskSync", "KioskStore", "WireAPI", "SystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticStandardLibrary
        ),
        .executableTarget(
            name: "kiosk-demo",
            dependencies: [
                "PassFormat", "KioskCore", "Cryptography", "KioskStore", "KioskScenes",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .target(
            name: "CheckinServerCommands",
            dependencies: [
                "CheckinAdmin", "EntryRules",
                "PassFormat",
                "CheckinServer", "CheckinSQLite", "CheckinPostgres", "CheckinCore", "WireAPI", "CheckinMail",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The tests' crash runs (FaultInjection.swift): debug builds only, never in a shipped binary.
            swiftSettings: [.define("CHECKIN_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        .executableTarget(
            name: "checkin-server", dependencies: ["CheckinServerCommands"], linkerSettings: staticStandardLibrary),

        .testTarget(name: "BoundedNumbersTests", dependencies: ["BoundedNumbers"]),
        .testTarget(name: "EntryRulesTests", dependencies: ["EntryRules"]),
        .testTarget(name: "KioskCoreTests", dependencies: ["SignedRecords", "GrayImage", "PassFormat", "KioskCore"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", systemPackage]),
        .testTarget(name: "CryptographyTests", dependencies: ["KioskCore", "PassFormat", "Cryptography"]),
        .testTarget(
            name: "KioskDecodingTests",
            dependencies: ["GrayImage", "KioskCore", "KioskDecoding", "ImageFiles", "QREncoding"]),
        .testTarget(
            name: "KioskSceneTests",
            dependencies: ["GrayImage", "KioskCore", "PassFormat", "KioskScenes", "KioskDecoding", "QREncoding"]),
        .testTarget(name: "KioskCaptureTests", dependencies: ["GrayImage", "KioskCapture", "KioskCore"]),
        .testTarget(
            name: "KioskFramebufferTests",
            dependencies: ["SignedRecords", "GrayImage", "KioskCore", "PassFormat", "KioskFramebuffer", "ImageFiles"],
            exclude: ["ReferenceScreens"]),
        .testTarget(
            name: "ImageFilesTests",
            dependencies: ["TestSupport", "GrayImage", "KioskCore", "ImageFiles", "SystemCalls"]),
        .testTarget(
            name: "KioskDisplayTests", dependencies: ["SignedRecords", "KioskCore", "PassFormat", "KioskDisplay"]),
        .testTarget(
            name: "KioskStoreTests",
            dependencies: [
                "Cryptography",
                "SignedRecords", "KioskCore",
                "PassFormat", "KioskStore", "KioskCSV", "CSVReading", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "KioskRuntimeTests",
            dependencies: [
                "ImageFiles", "KioskStore", "KioskDecoding",
                "SignedRecords", "GrayImage", "KioskCore",
                "PassFormat",
                "KioskRuntime", "KioskDisplay", "KioskScenes", "TestSupport", "DedicatedThreads",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "KioskPeersTests",
            dependencies: [
                "SignedRecords",
                "PassFormat", "KioskPeers", "KioskStore", "KioskCore", "Cryptography", "TestSupport",
                "DedicatedThreads",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "KioskSyncTests",
            dependencies: [
                "PassFormat",
                "KioskSync", "KioskStore", "KioskCore", "WireAPI", "KioskScenes", "CheckinPostgres", "TestSupport",
                "PostgresTestSupport",
                "CheckinWebhooks", "ImageFiles", "KioskDecoding", "DedicatedThreads",
                // The admin commands run inside the test process (LiveProcesses.admin).
                "CheckinServerCommands",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(
            name: "CheckinServerTests",
            dependencies: [
                "CheckinAdmin", "EntryRules",
                "SystemCalls",
                "SignedRecords",
                "PassFormat",
                "CheckinServer", "CheckinSQLite", "CheckinPostgres", "CheckinCore", "WireAPI", "CheckinWebhooks",
                "CheckinMail", "KioskCore", "KioskCSV", "Cryptography", "KioskDecoding", "ImageFiles", "TestSupport",
                "PostgresTestSupport", "DedicatedThreads", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // The request edge's handlers on an EmbeddedChannel with a virtual clock.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "CheckinMailTests",
            dependencies: [
                "CheckinMail", "TestSupport", "QREncoding", "ImageFiles", "KioskDecoding", "KioskCore",
                "DedicatedThreads",
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
