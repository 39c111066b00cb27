// swift-tools-version: 6.1
//
// Waymark — a location agent for Raspberry Pi class boards.
// The targets follow the data flow: bytes become sentences (WaymarkNMEA), sentences become
// fixes and locations (WaymarkLocation), and the command-line tool sits on top.
import PackageDescription

let package = Package(
    name: "Waymark",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "waymark", targets: ["WaymarkCLI"]),
        .executable(name: "waymarkd", targets: ["waymarkd"]),
        .library(name: "WaymarkNMEA", targets: ["WaymarkNMEA"]),
        .library(name: "WaymarkLocation", targets: ["WaymarkLocation"]),
        .library(name: "Waymark", targets: ["Waymark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pure core: no Foundation, no I/O.
        .target(name: "WaymarkClock"),
        // The simulated board (scenarios, receiver and accelerometer models): pure, seeded.
        .target(name: "WaymarkReceiver", dependencies: ["WaymarkClock", "WaymarkNMEA"]),
        .target(name: "WaymarkSimulation", dependencies: ["WaymarkClock", "WaymarkNMEA", "WaymarkLocation", "WaymarkReceiver"]),
        .target(name: "WaymarkNMEA"),
        .target(name: "WaymarkJSON"),
        .target(name: "WaymarkMotion", dependencies: ["WaymarkClock"]),
        .target(
            name: "WaymarkPowerProfile",
            dependencies: [
                "WaymarkClock", "WaymarkEngine", "WaymarkJSON", "WaymarkLocation", "WaymarkMotion", "WaymarkReceiver",
                "WaymarkSimulation",
            ]
        ),
        .target(name: "WaymarkEngine", dependencies: ["WaymarkClock", "WaymarkLocation", "WaymarkMotion", "WaymarkReceiver"]),
        .target(name: "WaymarkLocation", dependencies: ["WaymarkNMEA", "WaymarkJSON"]),
        // The Monitor's pure core (issue 15): geofence conditions, their evaluation and schedule,
        // visits, and the values the daemon stores. Not wired yet.
        .target(name: "WaymarkMonitoring", dependencies: ["WaymarkClock", "WaymarkLocation"]),
        .target(name: "WaymarkProtocol", dependencies: ["WaymarkLocation", "WaymarkNMEA", "WaymarkJSON", "WaymarkClock"]),

        // Operating-system layer for the daemon: thin Glibc wrappers (with a C shim for the
        // Linux calls Glibc's module leaves out) and the one epoll event loop.
        .target(name: "CWaymarkSystem"),
        .target(name: "WaymarkSystem", dependencies: ["CWaymarkSystem"]),
        .target(name: "WaymarkEventLoop", dependencies: ["WaymarkSystem"]),

        // Drivers for real hardware: libserialport, libgpiod (v1 or v2 behind one C shim) and
        // SMBus ioctls; board definitions (Board/*.toml) parsed without Foundation.
        .systemLibrary(
            name: "CSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .target(name: "CWaymarkDrivers", dependencies: ["CGPIOD"]),
        .target(name: "WaymarkBoard", dependencies: ["WaymarkReceiver"]),
        .target(
            name: "WaymarkDrivers",
            dependencies: [
                "WaymarkSystem", "WaymarkNMEA", "WaymarkBoard", "WaymarkClock", "CSerialPort", "CWaymarkDrivers",
            ]
        ),

        // The daemon's persistent store: SQLite through its C library (libsqlite3-dev), a thin
        // typed wrapper, the versioned schema and the authorization data of issue 13.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "WaymarkStore", dependencies: ["CSQLite", "WaymarkSystem"]),
        // Commits to the store in a loop for the kill -9 test (WaymarkStoreTests).
        .executableTarget(name: "waymark-store-torture", dependencies: ["WaymarkStore", "WaymarkSystem"]),

        // The daemon's socket server (Server/), which speaks WaymarkProtocol to clients.
        .target(
            name: "WaymarkDaemon",
            dependencies: [
                "WaymarkProtocol", "WaymarkEventLoop", "WaymarkSystem", "WaymarkLocation", "WaymarkClock",
                "WaymarkEngine", "WaymarkMotion", "WaymarkNMEA", "WaymarkSimulation", "WaymarkDrivers", "WaymarkBoard",
                "WaymarkReceiver",
            ]
        ),

        // Client library: `LocationUpdate.liveUpdates`, `Location.requestLocation` over the socket.
        .target(
            name: "Waymark",
            dependencies: ["WaymarkProtocol", "WaymarkEventLoop", "WaymarkSystem", "WaymarkLocation"]
        ),

        // The daemon's executable.
        .executableTarget(name: "waymarkd", dependencies: ["WaymarkDaemon", "WaymarkProtocol", "WaymarkSystem"]),

        // Command-line tool.
        .executableTarget(
            name: "WaymarkCLI",
            dependencies: [
                "Waymark", "WaymarkProtocol", "WaymarkNMEA", "WaymarkLocation", "WaymarkPowerProfile", "WaymarkReceiver", "WaymarkSimulation", "WaymarkSystem", "WaymarkClock", "WaymarkJSON", "WaymarkBoard", "WaymarkDrivers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .target(name: "WaymarkTestFixtures", path: "Tests/WaymarkTestFixtures"),
        .testTarget(name: "WaymarkNMEATests", dependencies: ["WaymarkNMEA", "WaymarkTestFixtures"]),
        .testTarget(
            name: "WaymarkPowerProfileTests",
            dependencies: ["WaymarkPowerProfile", "WaymarkSimulation", "WaymarkMotion", "WaymarkClock", "WaymarkReceiver", "WaymarkLocation"]
        ),
        .testTarget(
            name: "WaymarkEngineTests",
            dependencies: ["WaymarkEngine", "WaymarkClock", "WaymarkLocation", "WaymarkMotion", "WaymarkReceiver"]
        ),
        .testTarget(
            name: "WaymarkSimulationTests",
            dependencies: ["WaymarkSimulation", "WaymarkClock", "WaymarkNMEA", "WaymarkLocation", "WaymarkReceiver"]
        ),
        .testTarget(
            name: "WaymarkLocationTests",
            dependencies: ["WaymarkLocation", "WaymarkNMEA", "WaymarkJSON", "WaymarkTestFixtures"]
        ),
        .testTarget(
            name: "WaymarkMonitoringTests",
            dependencies: ["WaymarkMonitoring", "WaymarkClock", "WaymarkLocation", "WaymarkSimulation"]
        ),
        .testTarget(name: "WaymarkJSONTests", dependencies: ["WaymarkJSON"]),
        .testTarget(
            name: "WaymarkProtocolTests",
            dependencies: ["WaymarkProtocol", "WaymarkLocation", "WaymarkJSON"]
        ),
        // Shared by the server's and the client library's tests: a loop on a thread, a
        // scripted agent, raw socket clients.
        .target(
            name: "WaymarkServerTestSupport",
            dependencies: ["WaymarkDaemon", "WaymarkProtocol", "WaymarkEventLoop", "WaymarkSystem", "WaymarkLocation"],
            path: "Tests/WaymarkServerTestSupport"
        ),
        .testTarget(
            name: "WaymarkServerTests",
            dependencies: ["WaymarkServerTestSupport", "WaymarkDaemon", "WaymarkProtocol", "WaymarkSystem"]
        ),
        .testTarget(
            name: "WaymarkClientTests",
            dependencies: ["Waymark", "WaymarkServerTestSupport", "WaymarkDaemon", "WaymarkSystem", "WaymarkEventLoop", "waymarkd"]
        ),
        // The real waymarkd against hostile local clients: floods, stalls, thousands of
        // connections (docs/reliability.md, "Hostile clients").
        .testTarget(
            name: "WaymarkHostileTests",
            dependencies: ["WaymarkServerTestSupport", "WaymarkProtocol", "WaymarkSystem", "waymarkd"]
        ),
        .testTarget(name: "WaymarkCLITests", dependencies: ["WaymarkCLI"]),
        .testTarget(name: "WaymarkSystemTests", dependencies: ["WaymarkSystem"]),
        .testTarget(
            name: "WaymarkEventLoopTests",
            dependencies: ["WaymarkEventLoop", "WaymarkSystem"]
        ),
        .testTarget(name: "WaymarkBoardTests", dependencies: ["WaymarkBoard"]),
        .testTarget(
            name: "WaymarkStoreTests", dependencies: ["WaymarkStore", "CSQLite", "WaymarkSystem", "waymark-store-torture"]),
        .testTarget(
            name: "WaymarkDriversTests",
            dependencies: ["WaymarkDrivers", "WaymarkBoard", "WaymarkSystem", "WaymarkNMEA"]
        ),
        .testTarget(
            name: "HardwareVMTests",
            dependencies: [
                "WaymarkDrivers", "WaymarkBoard", "WaymarkSystem", "WaymarkProtocol", "WaymarkLocation",
                "WaymarkServerTestSupport",
            ]
        ),
        .testTarget(
            name: "WaymarkDaemonTests",
            dependencies: [
                "WaymarkDaemon", "WaymarkBoard", "WaymarkDrivers", "WaymarkSystem", "WaymarkEventLoop",
                "WaymarkEngine", "WaymarkReceiver", "WaymarkMotion", "WaymarkProtocol",
            ]
        ),
    ]
)

// Fuzz targets (Fuzz/, run by Scripts/fuzz): libFuzzer harnesses for the readers of untrusted
// input. They exist only when WAYMARK_FUZZ=1, so that no build of Waymark's products sees them.
if Context.environment["WAYMARK_FUZZ"] == "1" {
    // libFuzzer's driver, called from each harness's main.
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzNMEA", ["WaymarkLocation", "WaymarkJSON"]),
        ("FuzzProtocol", ["WaymarkProtocol"]),
        ("FuzzJSON", ["WaymarkJSON"]),
        ("FuzzBoard", ["WaymarkBoard"]),
        ("FuzzScenario", ["WaymarkSimulation", "WaymarkClock"]),
    ]
    for harness in harnesses {
        package.targets.append(
            .executableTarget(
                name: harness.name, dependencies: ["CLibFuzzer"] + harness.dependencies, path: "Fuzz/\(harness.name)")
        )
    }
}

// Every target: Swift 6 language mode (the tools version's default, which brings complete
// strict concurrency checking) plus the upcoming features we hold ourselves to.
// Scripts/test builds with -warnings-as-errors so no warning creeps in.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
