// swift-tools-version: 6.2
//
// Waymark — a location agent for Raspberry Pi class boards, built and run on Linux (it declares
// no Apple platform: the daemon and the client library speak Linux system calls).
// The targets follow the data flow: bytes become sentences (WaymarkNMEA), sentences become
// fixes and locations (WaymarkFix, the receiver pipeline), and locations reach clients as the
// public model (WaymarkLocation) through the client library (Waymark). The command-line tool
// sits on top.
import PackageDescription

let package = Package(
    name: "Waymark",
    products: [
        .executable(name: "waymark", targets: ["WaymarkCLI"]),
        .executable(name: "waymarkd", targets: ["waymarkd"]),
        .library(name: "WaymarkNMEA", targets: ["WaymarkNMEA"]),
        .library(name: "Waymark", targets: ["Waymark"]),
        .executable(name: "waymark-mqtt", targets: ["waymark-mqtt"]),
    ],
    // The command-line tool needs swift-argument-parser; a package that uses only the
    // libraries turns the default traits off (`traits: []`) and so never fetches it.
    traits: [
        .trait(name: "CommandLineTool", description: "The `waymark` tool, built on swift-argument-parser."),
        .default(enabledTraits: ["CommandLineTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pure core: no Foundation, no I/O.
        .target(name: "WaymarkClock"),
        // The simulated board (scenarios, receiver and accelerometer models): pure, seeded.
        .target(name: "WaymarkReceiver", dependencies: ["WaymarkClock", "WaymarkNMEA", "WaymarkLocation"]),
        .target(
            name: "WaymarkSimulation",
            dependencies: ["WaymarkClock", "WaymarkNMEA", "WaymarkLocation", "WaymarkFix", "WaymarkReceiver"]
        ),
        // Lifetimes: NMEASentence is a non-escapable view (a Span of the framer's bytes).
        .target(name: "WaymarkNMEA", swiftSettings: [.enableExperimentalFeature("Lifetimes")]),
        .target(name: "WaymarkJSON"),
        .target(name: "WaymarkMotion", dependencies: ["WaymarkClock"]),
        .target(
            name: "WaymarkPowerProfile",
            dependencies: [
                "WaymarkClock", "WaymarkEngine", "WaymarkHardware", "WaymarkJSON", "WaymarkLocation", "WaymarkMotion", "WaymarkReceiver",
                "WaymarkSimulation", "WaymarkMonitoring",
            ]
        ),
        .target(
            name: "WaymarkEngine",
            dependencies: ["WaymarkClock", "WaymarkLocation", "WaymarkFix", "WaymarkMotion", "WaymarkReceiver"]
        ),
        // The public model (Location, LocationUpdate, Diagnostics, ...): what a client names.
        // libm's trigonometry for the geodesy, through a C shim (no Glibc import outside WaymarkSystem).
        .target(name: "CWaymarkMath"),
        .target(name: "WaymarkMath", dependencies: ["CWaymarkMath"]),
        .target(name: "WaymarkLocation", dependencies: ["WaymarkMath"]),
        // The receiver pipeline: sentences to epochs, fixes, dates, accuracies and locations.
        .target(name: "WaymarkFix", dependencies: ["WaymarkNMEA", "WaymarkJSON", "WaymarkLocation", "WaymarkMath"]),
        .target(name: "WaymarkProtocol", dependencies: ["WaymarkLocation", "WaymarkJSON", "WaymarkClock"]),
        // gpsd's JSON protocol for gpsd's clients (issue 16, docs/gpsd.md): their commands read,
        // gpsd's replies and reports written. Pure.
        .target(name: "WaymarkGpsd", dependencies: ["WaymarkFix", "WaymarkJSON", "WaymarkLocation", "WaymarkTime"]),
        // The Monitor's pure core (issue 15): geofence conditions, their evaluation and schedule,
        // visits, and the values the daemon stores. Pure.
        .target(name: "WaymarkMonitoring", dependencies: ["WaymarkClock", "WaymarkLocation", "WaymarkMath"]),

        // Operating-system layer for the daemon: thin Glibc wrappers (with a C shim for the
        // Linux calls Glibc's module leaves out) and the one epoll event loop.
        .target(name: "CWaymarkSystem"),
        .target(name: "WaymarkSystem", dependencies: ["CWaymarkSystem", "WaymarkClock"]),
        .target(name: "WaymarkEventLoop", dependencies: ["WaymarkSystem"]),

        // Time for chrony: PPS edges paired with UTC seconds (pure), and chrony's SOCK refclock
        // and NTP SHM writers (the C header mirrors their structs for the platform's layout).
        .target(name: "WaymarkTime", dependencies: ["WaymarkClock"]),
        .target(name: "CWaymarkChrony"),
        .target(name: "WaymarkChrony", dependencies: ["WaymarkTime", "WaymarkSystem", "CWaymarkChrony"]),

        // Drivers for real hardware: libserialport, libgpiod (v1 or v2 behind one C shim) and
        // SMBus ioctls; board definitions (Board/*.toml) parsed without Foundation.
        .systemLibrary(
            name: "CSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .target(name: "CWaymarkDrivers", dependencies: ["CGPIOD"]),
        // What board files and drivers both name: receiver families, accelerometer chips, GPIO
        // lines, power strategies.
        .target(name: "WaymarkHardware"),
        .target(name: "WaymarkBoard", dependencies: ["WaymarkHardware", "WaymarkReceiver", "WaymarkSystem"]),
        .target(
            name: "WaymarkDrivers",
            dependencies: [
                "WaymarkHardware", "WaymarkSystem", "WaymarkNMEA", "WaymarkClock", "CSerialPort", "CWaymarkDrivers",
            ]
        ),

        // Who may know where the device is (issue 13): identity, policy files, Core Location's
        // authorization decisions and diagnostics, reduced accuracy. Pure: no I/O, no clock.
        .target(name: "WaymarkAuthorization", dependencies: ["WaymarkBoard", "WaymarkJSON", "WaymarkLocation", "WaymarkClock", "WaymarkMath", "WaymarkSystem"]),

        // The daemon's persistent store: SQLite through its C library (libsqlite3-dev), a thin
        // typed wrapper, the versioned schema and the authorization data of issue 13.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "WaymarkStore", dependencies: ["CSQLite", "WaymarkSystem", "WaymarkAuthorization", "WaymarkMonitoring", "WaymarkLocation"]),
        // Commits to the store in a loop for the kill -9 test (WaymarkStoreTests).
        .executableTarget(
            name: "waymark-store-torture", dependencies: ["WaymarkStore", "WaymarkAuthorization", "WaymarkMonitoring", "WaymarkLocation", "WaymarkSystem"]),

        // The input side: where locations and motion come from (the board's receiver link and
        // motion sensor over the drivers, a replayed capture, a byte stream, the simulated
        // board), each handing the engine its events.
        .target(
            name: "WaymarkInput",
            dependencies: [
                "WaymarkDrivers", "WaymarkBoard", "WaymarkHardware", "WaymarkNMEA", "WaymarkFix", "WaymarkLocation", "WaymarkMotion",
                "WaymarkReceiver", "WaymarkEngine", "WaymarkSimulation", "WaymarkEventLoop", "WaymarkSystem", "WaymarkClock",
                "WaymarkTime",
            ]
        ),

        // The daemon: wiring (Daemon), the agent (Agent/) and the socket server (Server/), which
        // speaks WaymarkProtocol to clients, and gpsd's protocol to gpsd's clients (--gpsd).
        .target(
            name: "WaymarkDaemon",
            dependencies: [
                "WaymarkInput", "WaymarkProtocol", "WaymarkConnection", "WaymarkEventLoop", "WaymarkSystem", "WaymarkLocation",
                "WaymarkClock", "WaymarkEngine", "WaymarkSimulation", "WaymarkBoard", "WaymarkReceiver", "WaymarkMonitoring",
                "WaymarkStore", "WaymarkAuthorization", "WaymarkTime", "WaymarkChrony", "WaymarkGpsd", "WaymarkFix", "WaymarkHardware",
            ]
        ),

        // One end of a protocol connection over a socket (lines in, messages out), shared by
        // the daemon's server and the client library.
        .target(
            name: "WaymarkConnection",
            dependencies: ["WaymarkProtocol", "WaymarkLocation", "WaymarkEventLoop", "WaymarkSystem"]
        ),

        // Client library: `LocationUpdate.liveUpdates`, `Location.requestLocation` over the socket.
        .target(
            name: "Waymark",
            dependencies: ["WaymarkLocation", "WaymarkProtocol", "WaymarkConnection", "WaymarkEventLoop", "WaymarkSystem", "WaymarkClock"]
        ),

        // The daemon's executable.
        .executableTarget(name: "waymarkd", dependencies: ["WaymarkDaemon", "WaymarkProtocol", "WaymarkSimulation", "WaymarkSystem"]),

        // waymark-mqtt, the MQTT bridge (docs/ecosystem.md): an app of the client library that
        // publishes OwnTracks messages through libmosquitto (libmosquitto-dev, wrapped thinly
        // by WaymarkMosquitto), kept in an SQLite outbox while the broker is away. Its logic
        // (payloads, outbox bound, delivery and backoff) is pure in WaymarkBridgeCore.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "WaymarkMosquitto", dependencies: ["CMosquitto"]),
        .target(name: "WaymarkBridgeCore", dependencies: ["WaymarkClock", "WaymarkJSON", "WaymarkLocation"]),
        .target(
            name: "WaymarkBridge",
            dependencies: [
                "Waymark", "WaymarkBridgeCore", "WaymarkMosquitto", "WaymarkStore", "WaymarkBoard", "WaymarkClock", "WaymarkLocation",
                "WaymarkSystem",
            ]
        ),
        .executableTarget(
            name: "waymark-mqtt", dependencies: ["Waymark", "WaymarkBridge", "WaymarkBridgeCore", "WaymarkBoard", "WaymarkSystem"]),

        // Command-line tool.
        .executableTarget(
            name: "WaymarkCLI",
            dependencies: [
                "Waymark", "WaymarkProtocol", "WaymarkAuthorization", "WaymarkNMEA", "WaymarkLocation", "WaymarkFix", "WaymarkPowerProfile", "WaymarkMonitoring", "WaymarkReceiver", "WaymarkSimulation", "WaymarkSystem", "WaymarkClock", "WaymarkJSON", "WaymarkBoard", "WaymarkHardware", "WaymarkDrivers",
                .product(
                    name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
            ]
        ),

        .target(name: "WaymarkTestFixtures", dependencies: ["WaymarkSystem"], path: "Tests/WaymarkTestFixtures"),
        .testTarget(name: "WaymarkNMEATests", dependencies: ["WaymarkNMEA", "WaymarkTestFixtures"]),
        .testTarget(
            name: "WaymarkPowerProfileTests",
            dependencies: [
                "WaymarkPowerProfile", "WaymarkSimulation", "WaymarkMotion", "WaymarkClock", "WaymarkReceiver", "WaymarkLocation", "WaymarkMonitoring", "WaymarkMath", "WaymarkEngine", "WaymarkHardware",
                "WaymarkTestFixtures",
            ]
        ),
        .testTarget(
            name: "WaymarkEngineTests",
            dependencies: ["WaymarkEngine", "WaymarkClock", "WaymarkLocation", "WaymarkFix", "WaymarkMotion", "WaymarkReceiver"]
        ),
        .testTarget(
            name: "WaymarkSimulationTests",
            dependencies: ["WaymarkSimulation", "WaymarkClock", "WaymarkNMEA", "WaymarkLocation", "WaymarkFix", "WaymarkReceiver", "WaymarkTestFixtures"]
        ),
        .testTarget(
            name: "WaymarkFixTests",
            dependencies: ["WaymarkFix", "WaymarkLocation", "WaymarkNMEA", "WaymarkJSON", "WaymarkTestFixtures"]
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
            dependencies: ["WaymarkDaemon", "WaymarkProtocol", "WaymarkEventLoop", "WaymarkSystem", "WaymarkLocation", "WaymarkFix"],
            path: "Tests/WaymarkServerTestSupport"
        ),
        .testTarget(
            name: "WaymarkServerTests",
            dependencies: ["WaymarkServerTestSupport", "WaymarkDaemon", "WaymarkEngine", "WaymarkProtocol", "WaymarkLocation", "WaymarkSystem", "WaymarkAuthorization", "WaymarkMonitoring", "WaymarkStore", "WaymarkClock", "WaymarkTestFixtures", "WaymarkConnection"]
        ),
        // The daemon's monitors over a real store, on the shipped scenarios.
        .testTarget(
            name: "WaymarkMonitorCenterTests",
            dependencies: [
                "WaymarkDaemon", "WaymarkMonitoring", "WaymarkStore", "WaymarkAuthorization", "WaymarkLocation", "WaymarkClock",
                "WaymarkSimulation", "WaymarkSystem", "WaymarkTestFixtures",
            ]
        ),
        .testTarget(
            name: "WaymarkClientTests",
            dependencies: [
                "Waymark", "WaymarkLocation", "WaymarkServerTestSupport", "WaymarkDaemon", "WaymarkSystem", "WaymarkEventLoop",
                "WaymarkProtocol", "waymarkd", "WaymarkCLI", "WaymarkAuthorization", "WaymarkEngine", "WaymarkTestFixtures",
                "WaymarkSimulation", "WaymarkReceiver", "WaymarkClock", "WaymarkStore",
            ]
        ),
        // The real waymarkd against hostile local clients: floods, stalls, thousands of
        // connections (docs/reliability.md, "Hostile clients").
        .testTarget(
            name: "WaymarkHostileTests",
            dependencies: ["WaymarkServerTestSupport", "WaymarkProtocol", "WaymarkLocation", "WaymarkSystem", "waymarkd", "WaymarkTestFixtures"]
        ),
        .testTarget(name: "WaymarkCLITests", dependencies: ["WaymarkCLI", "WaymarkPowerProfile", "WaymarkTestFixtures"]),
        .testTarget(name: "WaymarkSystemTests", dependencies: ["WaymarkSystem", "WaymarkClock", "WaymarkTestFixtures"]),
        .testTarget(name: "WaymarkTimeTests", dependencies: ["WaymarkTime", "WaymarkClock"]),
        .testTarget(
            name: "WaymarkGpsdTests", dependencies: ["WaymarkGpsd", "WaymarkFix", "WaymarkJSON", "WaymarkLocation", "WaymarkTime", "WaymarkTestFixtures"]),
        .testTarget(
            name: "WaymarkChronyTests",
            dependencies: ["WaymarkChrony", "WaymarkTime", "WaymarkSystem", "CWaymarkChrony", "waymarkd", "WaymarkCLI", "WaymarkTestFixtures"]),
        .testTarget(
            name: "WaymarkEventLoopTests",
            dependencies: ["WaymarkEventLoop", "WaymarkSystem", "WaymarkClock"]
        ),
        .testTarget(name: "WaymarkBoardTests", dependencies: ["WaymarkBoard", "WaymarkHardware"]),
        .testTarget(
            name: "WaymarkAuthorizationTests",
            dependencies: [
                "WaymarkAuthorization", "WaymarkSimulation", "WaymarkLocation", "WaymarkFix", "WaymarkClock", "WaymarkNMEA", "WaymarkReceiver",
                "WaymarkTestFixtures",
            ]
        ),
        .testTarget(
            name: "WaymarkStoreTests",
            dependencies: [
                "WaymarkStore", "WaymarkAuthorization", "WaymarkMonitoring", "WaymarkLocation", "CSQLite", "WaymarkSystem", "waymark-store-torture",
            ]),
        .testTarget(
            name: "WaymarkBridgeCoreTests", dependencies: ["WaymarkBridgeCore", "WaymarkClock", "WaymarkJSON", "WaymarkLocation"]),
        // waymark-mqtt with the real waymarkd and a real mosquitto broker (TLS, restarts, cuts).
        .testTarget(
            name: "WaymarkBridgeTests",
            dependencies: ["WaymarkBridge", "WaymarkStore", "WaymarkBoard", "WaymarkSystem", "waymark-mqtt", "waymarkd", "WaymarkCLI", "WaymarkTestFixtures"]
        ),
        .testTarget(
            name: "WaymarkDriversTests",
            dependencies: ["WaymarkDrivers", "WaymarkHardware", "WaymarkBoard", "WaymarkSystem"]
        ),
        .testTarget(
            name: "HardwareVMTests",
            dependencies: [
                "WaymarkDrivers", "WaymarkHardware", "WaymarkBoard", "WaymarkSystem", "WaymarkProtocol", "WaymarkLocation",
                "WaymarkServerTestSupport",
            ]
        ),
        .testTarget(
            name: "WaymarkInputTests",
            dependencies: [
                "WaymarkInput", "WaymarkDaemon", "WaymarkBoard", "WaymarkHardware", "WaymarkDrivers", "WaymarkSystem", "WaymarkEventLoop",
                "WaymarkEngine", "WaymarkReceiver", "WaymarkLocation", "WaymarkProtocol", "WaymarkFix", "WaymarkTime", "WaymarkClock",
                "WaymarkSimulation", "WaymarkTestFixtures",
            ]
        ),
        .testTarget(name: "WaymarkTestFixturesTests", dependencies: ["WaymarkTestFixtures"]),
    ]
)

// Fuzz targets (Fuzz/, run by Scripts/fuzz): libFuzzer harnesses for the readers of untrusted
// input. They exist only when WAYMARK_FUZZ=1, so that no build of Waymark's products sees them.
if Context.environment["WAYMARK_FUZZ"] == "1" {
    // libFuzzer's driver, called from each harness's main.
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzNMEA", ["WaymarkNMEA", "WaymarkLocation", "WaymarkFix", "WaymarkJSON"]),
        ("FuzzProtocol", ["WaymarkProtocol"]),
        ("FuzzJSON", ["WaymarkJSON"]),
        ("FuzzBoard", ["WaymarkBoard"]),
        ("FuzzScenario", ["WaymarkSimulation", "WaymarkClock"]),
        ("FuzzAuthorization", ["WaymarkAuthorization"]),
        ("FuzzGpsd", ["WaymarkGpsd", "WaymarkJSON", "WaymarkLocation"]),
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
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
