package import WaymarkClock
package import WaymarkLocation

/// Reduced accuracy that never leaks (docs/authorization.md, "Reduced accuracy"): the one
/// place a location becomes what an app with reduced accuracy may see, on every path
/// (updates, `requestLocation`, status, monitors, TPV). One per device, shared by every app
/// with reduced accuracy, so that no app or pair of apps learns more by asking on more paths.
///
/// * **Snapped** to the centre of a ``ReducedAccuracyGrid`` cell 5 km wide, the grid shifted
///   by the device's secret; `horizontalAccuracy` is the cell's radius (every point of the
///   cell lies within it of the centre).
/// * **Sticky**: the cell changes only when the device is more than a quarter of a cell
///   outside it. A device near an edge (or a corner) never alternates between cells with its
///   receiver's noise, which would let an app average the centres to the edge.
/// * **Slow**: a new location at most every ``interval`` (20 minutes, the upper end of the
///   seed's "approximate location is updated only every 15 to 20 minutes"): the fewest
///   samples for an app to average, and walking a cell takes longer anyway.
/// * **Bare**: no altitude, speed, course, dilution or satellite counts.
package struct ReducedAccuracy: Sendable {
    /// The nominal cell width, metres.
    package static let cellSize = 5_000.0
    /// How far outside its cell (fraction of the cell) the device must be before the cell changes.
    package static let hysteresis = 0.25
    /// The shortest time between two new reduced locations.
    package static let interval = Duration.seconds(20 * 60)
    /// The shortest device secret accepted.
    package static let minimumSecretBytes = 16

    /// The device's grid.
    package let grid: ReducedAccuracyGrid
    /// The newest reduced location, its cell and when it was made.
    private var latest: (location: Location, cell: ReducedAccuracyGrid.Cell, madeAt: Instant)?

    /// Reduced accuracy with the device's `secret` (at least ``minimumSecretBytes`` random bytes).
    package init(secret: [UInt8]) {
        precondition(secret.count >= Self.minimumSecretBytes, "a device secret has at least \(Self.minimumSecretBytes) bytes")
        grid = ReducedAccuracyGrid(cellSize: Self.cellSize, secret: secret)
    }

    /// The newest reduced location, if there has been one: what status and every other path
    /// shows without a new true location.
    package var current: Location? { latest?.location }

    /// What an app with reduced accuracy sees at `now` (the core's clock) when the device's
    /// newest true location is `location`: a new reduced location if ``interval`` has passed
    /// since the last one (or there was none), else the last one again. Nil only for a
    /// location without finite coordinates and no earlier one.
    package mutating func reduce(_ location: Location, at now: Instant) -> Location? {
        if let latest, now - latest.madeAt < Self.interval { return latest.location }
        guard location.latitude.isFinite, location.longitude.isFinite else { return latest?.location }
        let cell: ReducedAccuracyGrid.Cell
        if let latest,
            grid.contains(latest.cell, latitude: location.latitude, longitude: location.longitude, margin: Self.hysteresis)
        {
            cell = latest.cell
        } else {
            cell = grid.cell(latitude: location.latitude, longitude: location.longitude)
        }
        let reduced = bare(location, in: cell)
        latest = (reduced, cell, now)
        return reduced
    }

    /// `location` moved to the centre of `cell`, with nothing a cell does not allow.
    private func bare(_ location: Location, in cell: ReducedAccuracyGrid.Cell) -> Location {
        var reduced = location
        (reduced.latitude, reduced.longitude) = grid.centre(of: cell)
        reduced.horizontalAccuracy = grid.radius(of: cell)
        reduced.altitude = 0
        reduced.ellipsoidalAltitude = 0
        reduced.verticalAccuracy = -1
        reduced.speed = -1
        reduced.speedAccuracy = -1
        reduced.course = -1
        reduced.courseAccuracy = -1
        reduced.isVelocityDerived = false
        reduced.mode = .twoDimensional
        reduced.receiverMode = nil
        reduced.dilution = DilutionOfPrecision()
        reduced.satellites = SatelliteCounts()
        return reduced
    }
}
