import Testing
import WaymarkAuthorization
import WaymarkClock
import WaymarkFix
import WaymarkLocation
import WaymarkNMEA
import WaymarkReceiver
import WaymarkSimulation
import WaymarkTestFixtures

@Suite("reduced accuracy", .ownThread)
struct ReducedAccuracyTests {
    static let secret: [UInt8] = Array(0..<32)
    static let grid = ReducedAccuracyGrid(cellSize: ReducedAccuracy.cellSize, secret: secret)

    static func at(_ seconds: Double) -> Instant { .zero + .seconds(seconds) }

    /// A precise location at the coordinate, with every field a receiver gives.
    static func location(_ latitude: Double, _ longitude: Double, time seconds: Int64 = 0) -> Location {
        var fix = Fix()
        fix.latitude = latitude
        fix.longitude = longitude
        fix.time = Timestamp(nanosecondsSinceEpoch: 1_795_000_000_000_000_000 + seconds * 1_000_000_000)
        fix.mode = .threeDimensional
        fix.quality = .autonomous
        fix.altitudeMSL = 408
        fix.speed = 1.4
        fix.course = 40
        fix.hdop = 0.9
        return Location(fix: fix, isSimulated: true)!
    }

    @Test("every latitude, poles included, lies in a whole cell: within its radius of the centre, no cell a sliver or huge")
    func cellsTileTheSphere() {
        var latitude = -90.0
        while latitude <= 90 {
            for longitude in [-180.0, -179.9999, -90, 0, 8.5417, 179.9999, 180] {
                let cell = Self.grid.cell(latitude: latitude, longitude: longitude)
                let centre = Self.grid.centre(of: cell)
                let radius = Self.grid.radius(of: cell)
                #expect(ReducedAccuracyGrid.distance(centre, (latitude, longitude)) <= radius + 1e-6, "\(latitude), \(longitude)")
                #expect(radius >= ReducedAccuracy.cellSize / 2 && radius <= 2 * ReducedAccuracy.cellSize, "\(latitude), \(longitude): \(radius)")
                #expect(centre.longitude >= -180 && centre.longitude < 180)
                let (south, north) = Self.grid.latitudes(of: cell)
                #expect(north - south >= 0.5 * ReducedAccuracy.cellSize / 111_195 - 1e-12)
            }
            latitude += latitude.magnitude > 89.5 ? 0.001 : 0.37
        }
        #expect(Self.grid.cell(latitude: 90, longitude: 0).row == Self.grid.cell(latitude: 89.999_9, longitude: 0).row)
        #expect(Self.grid.cell(latitude: .nan, longitude: .infinity) == Self.grid.cell(latitude: 0, longitude: 0))
        #expect(Self.grid.cell(latitude: 47, longitude: 8 + 720) == Self.grid.cell(latitude: 47, longitude: 8))
    }

    @Test("the antimeridian is an ordinary meridian: 179.9999° and -179.9999° share a cell unless an edge falls between")
    func antimeridian() {
        for latitude in stride(from: -80.0, through: 80, by: 7.3) {
            let east = Self.grid.cell(latitude: latitude, longitude: 179.999_9)
            let west = Self.grid.cell(latitude: latitude, longitude: -179.999_9)
            let (edge, width) = Self.grid.longitudes(of: west)
            let edgeBetween = abs(edge - -179.999_9) < 0.000_2 || abs(edge + width - -179.999_9) < 0.000_2
            #expect(east == west || edgeBetween)
            #expect(ReducedAccuracyGrid.distance(Self.grid.centre(of: west), (latitude, -179.999_9)) <= Self.grid.radius(of: west))
        }
    }

    @Test("another secret shifts the grid")
    func secretShifts() {
        let other = ReducedAccuracyGrid(cellSize: ReducedAccuracy.cellSize, secret: Array(repeating: 7, count: 32))
        let mine = Self.grid.centre(of: Self.grid.cell(latitude: 47.3769, longitude: 8.5417))
        let theirs = other.centre(of: other.cell(latitude: 47.3769, longitude: 8.5417))
        #expect(ReducedAccuracyGrid.distance(mine, theirs) > 1)
    }

    @Test("a reduced location is the cell's centre with its radius and nothing else")
    func bare() throws {
        var reduced = ReducedAccuracy(secret: Self.secret)
        let precise = Self.location(47.3769, 8.5417)
        let result = reduced.reduce(precise, at: Self.at(0))
        let location = try #require(result)
        let cell = Self.grid.cell(latitude: 47.3769, longitude: 8.5417)
        #expect((location.latitude, location.longitude) == Self.grid.centre(of: cell))
        #expect(location.horizontalAccuracy == Self.grid.radius(of: cell) && location.horizontalAccuracy > 3_000)
        #expect(location.altitude == 0 && location.ellipsoidalAltitude == 0 && location.verticalAccuracy == -1)
        #expect(location.speed == -1 && location.speedAccuracy == -1 && location.course == -1 && location.courseAccuracy == -1)
        #expect(location.dilution == DilutionOfPrecision() && location.satellites == SatelliteCounts())
        #expect(location.mode == .twoDimensional && location.receiverMode == nil && location.timestamp == precise.timestamp)
        #expect(reduced.current == location)
    }

    @Test("one new location per 20 minutes: in between, the same one on every path")
    func cadence() throws {
        var reduced = ReducedAccuracy(secret: Self.secret)
        let firstResult = reduced.reduce(Self.location(47.3769, 8.5417, time: 0), at: Self.at(0))
        let first = try #require(firstResult)
        let far = Self.location(47.6, 8.9, time: 1_199)
        #expect(reduced.reduce(far, at: Self.at(1_199)) == first)
        let secondResult = reduced.reduce(far, at: Self.at(1_200))
        let second = try #require(secondResult)
        #expect(second != first && second.timestamp == far.timestamp)
    }

    @Test("a device on an edge stays in one cell whatever its receiver's noise")
    func sticky() throws {
        let cell = Self.grid.cell(latitude: 47.3769, longitude: 8.5417)
        let (south, _) = Self.grid.latitudes(of: cell)
        let (west, _) = Self.grid.longitudes(of: cell)
        var reduced = ReducedAccuracy(secret: Self.secret)
        var centres: Set<Double> = []
        for step in 0..<200 {
            let noise = (step % 2 == 0 ? 1.0 : -1.0) * 0.000_03
            let result = reduced.reduce(Self.location(south + noise, west - noise, time: Int64(step) * 1_200), at: Self.at(Double(step) * 1_200))
            let location = try #require(result)
            centres.insert(location.latitude * 1_000 + location.longitude)
        }
        #expect(centres.count == 1)
    }

    /// The leak test of issue 13: a reduced app follows a long simulated day (the u-blox M8
    /// model with its noise) that dwells where snapping leaks most, on a cell's corner and then
    /// on one of its edges, and averages every coordinate it can obtain (one per fix, from the
    /// one reduced source every path shares) over each dwell. The estimate is never closer to
    /// the truth than a quarter of a cell. Without the hysteresis, the noise alternates the
    /// cells around the corner and the edge and the averages close in on both.
    @Test("averaging every coordinate of a long scenario never gets within a quarter cell of the truth")
    func leak() throws {
        let cell = Self.grid.cell(latitude: 47.3769, longitude: 8.5417)
        let corner = (latitude: Self.grid.latitudes(of: cell).south, longitude: Self.grid.longitudes(of: cell).west)
        let text = """
            start 2026-11-23T08:00:00Z \(corner.latitude) \(corner.longitude) 408
            desk 3h
            walk 30m heading=90
            desk 3h
            """
        let trajectory = Trajectory(scenario: try ScenarioParser.parse(text, file: "leak"), seed: 7)
        let dwells = [Self.at(0)...Self.at(3 * 3_600), Self.at(3.5 * 3_600)...Self.at(6.5 * 3_600)]
        var receiver = SimulatedReceiver(profile: .ubloxM8, trajectory: trajectory, seed: 7)
        receiver.powerOn(at: .zero)
        var decoder = NMEADecoder()
        var reduced = ReducedAccuracy(secret: Self.secret)
        var sums = Array(repeating: (latitude: 0.0, longitude: 0.0, count: 0), count: dwells.count)
        var newLocations = 0
        while let epoch = receiver.nextEpoch(before: trajectory.end) {
            var fixes: [Fix] = []
            epoch.bytes.withUnsafeBufferPointer { decoder.decode($0) { fixes.append($0) } }
            for fix in fixes {
                guard let precise = Location(fix: fix, isSimulated: true) else { continue }
                let previous = reduced.current
                guard let location = reduced.reduce(precise, at: epoch.instant) else { continue }
                if location != previous { newLocations += 1 }
                for (index, dwell) in dwells.enumerated() where dwell.contains(epoch.instant) {
                    sums[index].latitude += location.latitude
                    sums[index].longitude += location.longitude
                    sums[index].count += 1
                }
            }
        }
        // One new location per 20 minutes at most over 6.5 hours.
        #expect(newLocations >= 10 && newLocations <= 20)
        for (index, dwell) in dwells.enumerated() {
            let sum = sums[index]
            #expect(sum.count > 9_000)
            let estimate = (sum.latitude / Double(sum.count), sum.longitude / Double(sum.count))
            let middle = dwell.lowerBound + (dwell.upperBound - dwell.lowerBound) / 2
            let truth = trajectory.truth(at: middle).position
            let error = ReducedAccuracyGrid.distance(estimate, (truth.latitude, truth.longitude))
            #expect(error >= ReducedAccuracy.cellSize / 4, "dwell \(index): the estimate is \(error) m from the truth")
        }
    }
}
