import WaymarkMath

/// The cells reduced accuracy snaps to (docs/authorization.md, "Reduced accuracy"): rows of
/// equal latitude height, each cut into as many equal longitude sectors as fit cells about
/// `cellSize` wide at the row's widest parallel, both shifted by the device's secret.
///
/// The rows tile the sphere: a row left thinner than half a cell at a pole is merged into its
/// neighbour, so the polar cells are whole sectors of a cap, never slivers; each row's sectors
/// go around the whole parallel, so a cell spans the antimeridian like any other meridian.
package struct ReducedAccuracyGrid: Hashable, Sendable {
    /// One cell: its row (from the south) and its sector within the row.
    package struct Cell: Hashable, Sendable {
        package var row: Int
        package var column: Int
    }

    /// The cell's nominal width and height, metres.
    package let cellSize: Double
    /// The height of a row, degrees of latitude.
    let rowHeight: Double
    /// The secret shift of the row edges, degrees: in [0, rowHeight).
    let latitudeShift: Double
    /// The key of each row's longitude shift.
    let key: UInt64
    /// The lowest and highest row (the polar ones, slivers merged).
    let rows: ClosedRange<Int>

    /// The mean Earth radius (IUGG), metres.
    static let earthRadius = 6_371_008.8

    /// A grid of cells about `cellSize` metres wide, shifted by `secret`.
    package init(cellSize: Double, secret: [UInt8]) {
        self.cellSize = cellSize
        rowHeight = cellSize / (Self.earthRadius * .pi / 180)
        var key: UInt64 = 0x6A09_E667_F3BC_C908
        for byte in secret { key = Self.mix(key ^ UInt64(byte)) }
        self.key = key
        latitudeShift = Self.fraction(Self.mix(key ^ 0x4C41_5449_5455_4445)) * rowHeight
        // Row k spans [-90 + shift + k·h, -90 + shift + (k+1)·h], clipped to the poles.
        var lowest = Int((-latitudeShift / rowHeight).rounded(.down))
        var highest = Int(((180 - latitudeShift) / rowHeight).rounded(.down))
        if -90 + latitudeShift + Double(lowest + 1) * rowHeight - -90 < rowHeight / 2 { lowest += 1 }
        if 90 - (-90 + latitudeShift + Double(highest) * rowHeight) < rowHeight / 2 { highest -= 1 }
        rows = lowest...highest
    }

    /// The cell holding the coordinate (latitude clamped to ±90°, any longitude; a coordinate
    /// that is not finite counts as 0°, so that nothing traps).
    package func cell(latitude: Double, longitude: Double) -> Cell {
        let longitude = longitude.isFinite ? longitude : 0
        let latitude = latitude.isFinite ? min(max(latitude, -90), 90) : 0
        let raw = Int(((latitude + 90 - latitudeShift) / rowHeight).rounded(.down))
        let row = min(max(raw, rows.lowerBound), rows.upperBound)
        let width = columnWidth(row)
        let offset = Self.degrees(longitude + 180 - longitudeShift(row))
        let column = min(Int((offset / width).rounded(.down)), columnCount(row) - 1)
        return Cell(row: row, column: column)
    }

    /// The cell's southern and northern latitudes.
    package func latitudes(of cell: Cell) -> (south: Double, north: Double) {
        let south = cell.row == rows.lowerBound ? -90 : -90 + latitudeShift + Double(cell.row) * rowHeight
        let north = cell.row == rows.upperBound ? 90 : -90 + latitudeShift + Double(cell.row + 1) * rowHeight
        return (south, north)
    }

    /// The cell's western longitude (in [-180, 180)) and width in degrees.
    package func longitudes(of cell: Cell) -> (west: Double, width: Double) {
        let width = columnWidth(cell.row)
        return (Self.longitude(-180 + longitudeShift(cell.row) + Double(cell.column) * width), width)
    }

    /// The cell's centre.
    package func centre(of cell: Cell) -> (latitude: Double, longitude: Double) {
        let (south, north) = latitudes(of: cell)
        let (west, width) = longitudes(of: cell)
        return ((south + north) / 2, Self.longitude(west + width / 2))
    }

    /// The distance from the centre to the cell's farthest point (a corner or the middle of
    /// its northern or southern edge), metres: every point of the cell is within it.
    package func radius(of cell: Cell) -> Double {
        let centre = centre(of: cell)
        let (south, north) = latitudes(of: cell)
        let (west, width) = longitudes(of: cell)
        var radius = 0.0
        for latitude in [south, north] {
            for longitude in [west, west + width / 2, west + width] {
                radius = max(radius, Self.distance(centre, (latitude, longitude)))
            }
        }
        return radius
    }

    /// Whether the coordinate lies in `cell` grown by `margin` (a fraction of the cell's
    /// height and width) on every side.
    package func contains(_ cell: Cell, latitude: Double, longitude: Double, margin: Double) -> Bool {
        let (south, north) = latitudes(of: cell)
        let grow = margin * rowHeight
        guard latitude >= south - grow, latitude <= north + grow else { return false }
        if columnCount(cell.row) == 1 { return true }
        let (west, width) = longitudes(of: cell)
        return Self.degrees(longitude - west + margin * width) <= width * (1 + 2 * margin)
    }

    /// How many sectors row `row` has: cells at least `cellSize` wide along its widest parallel.
    func columnCount(_ row: Int) -> Int {
        let (south, north) = latitudes(of: Cell(row: row, column: 0))
        let widest = south <= 0 && north >= 0 ? 0 : min(abs(south), abs(north))
        let circumference = 2 * .pi * Self.earthRadius * cos(widest * .pi / 180)
        return max(1, Int((circumference / cellSize).rounded(.down)))
    }

    private func columnWidth(_ row: Int) -> Double { 360 / Double(columnCount(row)) }

    /// Row `row`'s secret longitude shift, degrees in [0, its column width).
    private func longitudeShift(_ row: Int) -> Double {
        Self.fraction(Self.mix(key ^ UInt64(bitPattern: Int64(row)))) * columnWidth(row)
    }

    /// `degrees` in [0, 360).
    private static func degrees(_ degrees: Double) -> Double {
        let wrapped = degrees.truncatingRemainder(dividingBy: 360)
        let positive = wrapped < 0 ? wrapped + 360 : wrapped
        return positive >= 360 ? 0 : positive
    }

    /// A longitude in [-180, 180).
    private static func longitude(_ degrees: Double) -> Double {
        Self.degrees(degrees + 180) - 180
    }

    /// The great-circle distance between two coordinates, metres (haversine).
    package static func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (b.0 - a.0) * radians
        let dLongitude = (b.1 - a.1) * radians
        let h = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// SplitMix64's finaliser: spreads every bit of `value` over the result.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `value` as a fraction in [0, 1).
    private static func fraction(_ value: UInt64) -> Double {
        Double(value >> 11) / Double(UInt64(1) << 53)
    }
}
