import WaymarkLocation
import WaymarkClock

/// One line of a scenario file being read: its tokens, and the errors it can raise.
struct ScenarioLine {
    let file: String
    let number: Int
    let tokens: [Substring]
    /// The `key=value` options and bare flags after the duration, not yet consumed.
    private var options: [Substring: (value: Substring?, token: Substring)] = [:]

    init(file: String, number: Int, tokens: [Substring]) {
        self.file = file
        self.number = number
        self.tokens = tokens
    }

    func error(_ message: String, _ suggestion: String) -> ScenarioError {
        ScenarioError(file: file, line: number, message: message, suggestion: suggestion)
    }

    // MARK: - The start line

    /// `start TIME LATITUDE LONGITUDE [ALTITUDE]`.
    func start() throws(ScenarioError) -> (time: Timestamp, origin: GeoPoint) {
        guard (4...5).contains(tokens.count) else {
            throw error("the start line needs a time, a latitude, a longitude and optionally an altitude",
                "write `\(ScenarioParser.startExample)`")
        }
        guard let time = ScenarioValues.timestamp(tokens[1]) else {
            throw error("'\(tokens[1])' is not a UTC time", "write it as 2026-11-23T08:00:00Z")
        }
        guard let latitude = Double(tokens[2]), (-85...85).contains(latitude) else {
            throw error("'\(tokens[2])' is not a latitude", "write decimal degrees between -85 and 85, north positive")
        }
        guard let longitude = Double(tokens[3]), (-180...180).contains(longitude) else {
            throw error("'\(tokens[3])' is not a longitude", "write decimal degrees between -180 and 180, east positive")
        }
        var altitude = 0.0
        if tokens.count == 5 {
            guard let value = ScenarioValues.quantity(tokens[4], unit: "m"), (-500...9_000).contains(value) else {
                throw error("'\(tokens[4])' is not an altitude", "write metres above sea level, such as 408")
            }
            altitude = value
        }
        return (time, GeoPoint(latitude: latitude, longitude: longitude, altitude: altitude))
    }

    // MARK: - Segment lines

    /// `KIND DURATION [key=value | flag]…`.
    mutating func segment() throws(ScenarioError) -> Segment {
        let kinds = SegmentKind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let kind = SegmentKind(rawValue: String(tokens[0])) else {
            throw error("unknown segment '\(tokens[0])'", "write one of \(kinds), or `start`")
        }
        guard tokens.count >= 2 else {
            throw error("'\(kind.rawValue)' needs a duration", "write for example `\(kind.rawValue) 10m`")
        }
        guard let duration = ScenarioValues.duration(tokens[1]) else {
            guard let seconds = ScenarioValues.seconds(tokens[1]) else {
                throw error(
                    "'\(tokens[1])' is not a duration", "write numbers with h, m, s or ms, larger units first, such as 1h30m, 90s or 1.5h")
            }
            throw seconds < ScenarioValues.shortestDuration.seconds
                ? error("'\(tokens[1])' is shorter than 1 ms", "write a duration of 1 ms or more")
                : error("'\(tokens[1])' is longer than 10,000,000 s (about 115 days)", "split it into several segments")
        }
        try collectOptions(of: kind)
        let plan = try plan(kind, duration: duration)
        return Segment(plan: plan, duration: duration, line: number)
    }

    private mutating func collectOptions(of kind: SegmentKind) throws(ScenarioError) {
        let allowed = Self.options(of: kind)
        for token in tokens.dropFirst(2) {
            let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0]
            guard let spec = allowed.first(where: { $0.name == key }) else {
                let list = allowed.isEmpty ? "it takes no options" : "its options are " + allowed.map(\.usage).joined(separator: ", ")
                throw error("\(kind.rawValue) has no option '\(key)'", list)
            }
            guard options[key] == nil else { throw error("'\(key)' given twice", "keep one") }
            if spec.isFlag != (parts.count == 1) {
                throw error("'\(token)' is written wrongly", "write `\(spec.usage)`")
            }
            options[key] = (parts.count == 2 ? parts[1] : nil, token)
        }
    }

    private mutating func plan(_ kind: SegmentKind, duration: Duration) throws(ScenarioError) -> Segment.Plan {
        switch kind {
        case .desk:
            return .desk(typing: options["typing"] != nil, doorSlamsPerHour: try rate("door-slams") ?? 0)
        case .walk:
            return .walk(heading: try heading(), speed: try speed(default: 1.4, limit: 8))
        case .drive:
            let stops = try count("stops") ?? 0
            let stopLength = try durationRange("stop") ?? .seconds(30) ... .seconds(90)
            let stopping = stopLength.upperBound * stops
            guard stopping + .seconds(10) * (stops + 1) <= duration else {
                throw error("\(stops) stops of up to \(stopLength.upperBound) leave no time to drive",
                    "make the drive longer, the stops shorter or fewer")
            }
            return .drive(
                heading: try heading(), speed: try speed(default: 14, limit: 70), stops: stops, stopLength: stopLength,
                acceleration: try acceleration(default: SpeedProfile.drivingAcceleration))
        case .still:
            return .still
        case .idleCar:
            return .idleCar
        case .lift:
            return try lift(duration: duration)
        case .flight:
            let altitude = try quantity("altitude", unit: "m", range: 100...15_000) ?? 11_000
            let climb = FlightProfile(cruiseAltitude: altitude)
            guard climb.minimumDuration <= duration else {
                throw error("a climb to \(Int(altitude)) m and the descent take longer than the flight",
                    "make the flight at least \(Int(climb.minimumDuration.seconds / 60) + 1)m or cruise lower")
            }
            return .flight(heading: try heading(), speed: try speed(default: 230, limit: 320), altitude: altitude)
        }
    }

    private func lift(duration: Duration) throws(ScenarioError) -> Segment.Plan {
        let up = try quantity("up", unit: "m", range: 0.5...500)
        let down = try quantity("down", unit: "m", range: 0.5...500)
        guard (up == nil) != (down == nil) else {
            throw error("a lift goes either up or down", "write one of `up=12m` or `down=12m`")
        }
        let rise = up ?? -(down ?? 0)
        let speed = try speed(default: 1.5, limit: 10)
        let acceleration = try acceleration(default: SpeedProfile.liftAcceleration)
        let ride = SpeedProfile.ride(distance: abs(rise), speed: speed, acceleration: acceleration)
        guard ride.duration <= duration else {
            throw error("a ride of \(abs(rise)) m at \(speed) m/s takes \(ride.duration)",
                "make the lift segment at least that long, or faster with speed=")
        }
        return .lift(rise: rise, speed: speed, acceleration: acceleration)
    }

    // MARK: - Typed options

    /// The options each kind takes.
    private static func options(of kind: SegmentKind) -> [OptionSpec] {
        let heading = OptionSpec(name: "heading", usage: "heading=<degrees from north>")
        let speed = OptionSpec(name: "speed", usage: "speed=<metres per second>")
        let acceleration = OptionSpec(name: "accel", usage: "accel=<metres per second squared>")
        switch kind {
        case .desk:
            return [OptionSpec(name: "typing", usage: "typing", isFlag: true), OptionSpec(name: "door-slams", usage: "door-slams=<n>/h")]
        case .walk:
            return [heading, speed]
        case .drive:
            return [
                heading, speed, OptionSpec(name: "stops", usage: "stops=<count>"), OptionSpec(name: "stop", usage: "stop=<min>..<max>s"),
                acceleration,
            ]
        case .still, .idleCar:
            return []
        case .lift:
            return [OptionSpec(name: "up", usage: "up=<metres>m"), OptionSpec(name: "down", usage: "down=<metres>m"), speed, acceleration]
        case .flight:
            return [heading, speed, OptionSpec(name: "altitude", usage: "altitude=<metres>")]
        }
    }

    private func heading() throws(ScenarioError) -> Double? {
        try quantity("heading", unit: "", range: 0...360)
    }

    private func speed(default value: Double, limit: Double) throws(ScenarioError) -> Double {
        try quantity("speed", unit: "", range: 0.1...limit) ?? value
    }

    /// Pulling off, braking, a lift's start and stop: from a crawl to a hard stop (0.1–9.8 m/s², 1 g).
    private func acceleration(default value: Double) throws(ScenarioError) -> Double {
        try quantity("accel", unit: "", range: 0.1...9.8) ?? value
    }

    private func quantity(_ key: Substring, unit: String, range: ClosedRange<Double>) throws(ScenarioError) -> Double? {
        guard let (text, token) = option(key) else { return nil }
        guard let value = ScenarioValues.quantity(text, unit: unit), range.contains(value) else {
            throw error("'\(token)' is out of range or not a number",
                "write \(key)= with a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private func count(_ key: Substring) throws(ScenarioError) -> Int? {
        guard let (text, token) = option(key) else { return nil }
        guard let value = Int(text), (0...500).contains(value) else {
            throw error("'\(token)' is not a count", "write \(key)= with a whole number from 0 to 500")
        }
        return value
    }

    private func rate(_ key: Substring) throws(ScenarioError) -> Double? {
        guard let (text, token) = option(key) else { return nil }
        guard let value = ScenarioValues.ratePerHour(text), value <= 3_600 else {
            throw error("'\(token)' is not a rate", "write \(key)= with a number per hour, such as \(key)=2/h")
        }
        return value
    }

    private func durationRange(_ key: Substring) throws(ScenarioError) -> ClosedRange<Duration>? {
        guard let (text, token) = option(key) else { return nil }
        guard let value = ScenarioValues.durationRange(text) else {
            throw error("'\(token)' is not a range of durations", "write \(key)= with the shortest and longest, such as \(key)=30..90s")
        }
        return value
    }

    private func option(_ key: Substring) -> (Substring, Substring)? {
        guard let entry = options[key], let value = entry.value else { return nil }
        return (value, entry.token)
    }
}

/// An option a segment kind takes, and how to write it.
private struct OptionSpec {
    var name: Substring
    var usage: String
    var isFlag = false
}
