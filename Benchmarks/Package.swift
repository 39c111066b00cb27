// swift-tools-version: 6.1
//
// Waymark benchmarks — a package of its own so that benchmark-only code never enters the
// dependency graph of Waymark's users. Scripts/bench builds and runs everything here.
//
// `WAYMARK_BENCH_ANCHORS_ONLY=1` leaves Waymark out: the corpus generator still builds, so the
// anchors (gpsd, go-nmea) can be measured while the root package does not build.
import PackageDescription

let anchorsOnly = Context.environment["WAYMARK_BENCH_ANCHORS_ONLY"] == "1"

var dependencies: [Package.Dependency] = []
var targets: [Target] = [
    // Writes a deterministic corpus of u-blox style NMEA 4.10 sentences.
    .executableTarget(name: "NMEACorpusGenerator"),
]
if !anchorsOnly {
    // A package depended on by path is known by its folder's name (the clone's, not "Waymark").
    let waymark = Context.packageDirectory.split(separator: "/").dropLast().last.map(String.init)
    dependencies.append(.package(path: ".."))
    // Times Waymark's framer, checksum and typed parse over the in-memory corpus.
    targets.append(
        .executableTarget(
            name: "NMEABench",
            dependencies: [.product(name: "WaymarkNMEA", package: waymark?.lowercased() ?? "waymark")]
        )
    )
}

let package = Package(
    name: "WaymarkBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: dependencies,
    targets: targets
)

// The same language settings as the root package.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
