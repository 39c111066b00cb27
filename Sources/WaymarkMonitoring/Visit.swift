package import WaymarkLocation

/// What the visit detector is told, in time order.
package enum VisitInput: Sendable {
    /// The engine's stationary detector declared the device still, at this time.
    case stationaryStarted(Timestamp)
    /// The device moves again, at this time.
    case stationaryEnded(Timestamp)
    /// A fix (whenever the receiver gives one).
    case location(Location)
    /// The daemon's timer at ``VisitDetector/arrivalDue``.
    case tick(Timestamp)
}

/// Derives visits from the stationary detector and the fixes: a stillness that lasts
/// ``minimumDwell`` is an arrival (a red light, a queue, a level crossing are not); its end is
/// the departure. The place is the weighted mean of the fixes taken while still, or, when the
/// receiver slept all along, of the last fix taken at most ``arrivalFixAge`` before stopping.
/// Memory is constant whatever the number of fixes.
package struct VisitDetector: Sendable {
    /// The shortest stay that is a visit: 5 minutes, longer than a red light (1–2 min) or a
    /// level crossing (2–4 min), shorter than any errand.
    package static let minimumDwell = Duration.seconds(300)
    /// How old the last fix before the stop may be to stand for the place: 2 minutes (at
    /// walking pace within 200 m of it; the engine declares stillness seconds after the stop).
    package static let arrivalFixAge = Duration.seconds(120)

    private var stillSince: Timestamp?
    private var arrivalReported = false
    private var place = PlaceEstimate()
    private var lastMovingFix: Location?

    package init() {}

    /// When the current stillness becomes a visit, if it is not one yet.
    package var arrivalDue: Timestamp? {
        guard let stillSince, !arrivalReported else { return nil }
        return stillSince.advanced(by: Self.minimumDwell)
    }

    /// Takes one input and returns the visits it completes: an arrival, a departure, or both
    /// when the timer was late.
    package mutating func handle(_ input: VisitInput) -> [Visit] {
        switch input {
        case .stationaryStarted(let date):
            guard stillSince == nil else { return [] }
            stillSince = date
            arrivalReported = false
            place = PlaceEstimate()
            if let fix = lastMovingFix, fix.timestamp >= date.advanced(by: .zero - Self.arrivalFixAge) { place.add(fix) }
            return []
        case .location(let location):
            guard stillSince != nil else {
                if Accuracy.decisive(location) != nil { lastMovingFix = location }
                return []
            }
            place.add(location)
            return arrivalIfDue(at: location.timestamp)
        case .tick(let date):
            return arrivalIfDue(at: date)
        case .stationaryEnded(let date):
            guard let since = stillSince else { return [] }
            var visits = arrivalIfDue(at: date)
            if arrivalReported, let centre = place.estimate {
                visits.append(Visit(centre, arrivalDate: since, departureDate: max(date, since)))
            }
            stillSince = nil
            arrivalReported = false
            lastMovingFix = nil
            return visits
        }
    }

    private mutating func arrivalIfDue(at date: Timestamp) -> [Visit] {
        guard let since = stillSince, let due = arrivalDue, date >= due, let centre = place.estimate else { return [] }
        arrivalReported = true
        return [Visit(centre, arrivalDate: since, departureDate: nil)]
    }
}

extension Visit {
    fileprivate init(_ centre: PlaceEstimate.Centre, arrivalDate: Timestamp, departureDate: Timestamp?) {
        self.init(
            latitude: centre.latitude, longitude: centre.longitude, horizontalAccuracy: centre.accuracy,
            arrivalDate: arrivalDate, departureDate: departureDate)
    }
}
