import WaymarkClock
import WaymarkLocation

/// What one subscription's ``DeliveryOptions`` let through, and when: the distance filter and
/// minimum interval for moving locations, and the batch that defers them. An update that
/// pauses the stream (`isStationary`), says why a location is missing (diagnostics) or is the
/// first after either is never filtered, and ends the batch it joins.
struct DeliveryGate: Sendable {
    /// What leaves the gate.
    enum Output: Hashable, Sendable {
        /// One update on its own.
        case single(LocationUpdate)
        /// A batch, oldest first, and how many older updates were dropped from it.
        case batch([LocationUpdate], overflow: Int)
    }

    let options: DeliveryOptions
    /// The last location delivered (or put in a batch), and when.
    private var lastLocation: (location: Location, at: Instant)?
    /// Whether the last update let through paused the stream or lacked a location.
    private var interrupted = false
    /// The batch, oldest first from `heldStart`: a full batch overwrites its oldest update in
    /// place (a ring), so a full batch of 1,000 costs no more per fix than an empty one.
    private var held: [LocationUpdate] = []
    private var heldStart = 0
    private var heldSince: Instant?
    private var travelled = 0.0
    private var overflow = 0

    init(_ options: DeliveryOptions) {
        self.options = options
    }

    /// When the held batch must go out though nothing more comes, if there is one.
    var deadline: Instant? {
        guard let heldSince, let batching = options.batching else { return nil }
        return heldSince + batching.timeout
    }

    /// When the minimum interval lets the next moving location through, once one went through
    /// and the stream is not interrupted; nil when any location would pass now.
    var nextAdmission: Instant? {
        guard options.minimumInterval > .zero, !interrupted, let lastLocation else { return nil }
        return lastLocation.at + options.minimumInterval
    }

    /// Passes `update` through the filters at `now`; returns what to deliver, if anything.
    mutating func offer(_ update: LocationUpdate, at now: Instant) -> Output? {
        let ordinary = update.location != nil && !update.isStationary && update.diagnostics == Diagnostics()
        if ordinary, !interrupted, let location = update.location, !admits(location, at: now) { return nil }
        interrupted = !ordinary
        if let location = update.location {
            if let previous = newestHeld?.location { travelled += location.distance(from: previous) }
            lastLocation = (location, now)
        }
        guard let batching = options.batching else { return .single(update) }
        if held.count == batching.capacity {
            held[heldStart] = update
            heldStart = (heldStart + 1) % held.count
            overflow = min(overflow, Int.max - 1) + 1
        } else {
            held.append(update)
        }
        let since = heldSince ?? now
        heldSince = since
        let farEnough = batching.distance.map { travelled >= $0 } ?? false
        if ordinary, !farEnough, now < since + batching.timeout { return nil }
        return flush()
    }

    /// Delivers the held batch if its timeout has come by `now`.
    mutating func tick(at now: Instant) -> Output? {
        guard let deadline, now >= deadline else { return nil }
        return flush()
    }

    /// Whether a moving location is far enough from, and late enough after, the last one.
    private func admits(_ location: Location, at now: Instant) -> Bool {
        guard let lastLocation else { return true }
        return location.distance(from: lastLocation.location) >= options.distanceFilter
            && now - lastLocation.at >= options.minimumInterval
    }

    /// The newest update in the batch.
    private var newestHeld: LocationUpdate? {
        held.isEmpty ? nil : held[(heldStart + held.count - 1) % held.count]
    }

    private mutating func flush() -> Output {
        let output = Output.batch(Array(held[heldStart...] + held[..<heldStart]), overflow: overflow)
        held.removeAll()
        heldStart = 0
        heldSince = nil
        travelled = 0
        overflow = 0
        return output
    }
}
