import WaymarkClock
import WaymarkJSON
package import WaymarkLocation

extension DeliveryOptions {
    /// The longest `minimumInterval` a request may ask for: a day.
    package static let maximumInterval = Duration.seconds(86_400)

    /// Decodes `distanceFilter` (metres, finite, at least 0; default 0), `minimumInterval`
    /// (seconds, 0 ... ``maximumInterval``; default 0), `batch` (default none) and `passive`
    /// (default false).
    init(_ fields: Fields) throws(ProtocolError) {
        let distance = try fields.optionalDouble("distanceFilter") ?? 0
        guard distance >= 0, distance.isFinite else {
            throw fields.invalid("distanceFilter", "expected a finite number of metres, at least 0, found \(distance)")
        }
        let seconds = try fields.optionalDouble("minimumInterval") ?? 0
        guard seconds >= 0, seconds <= Self.maximumInterval.seconds else {
            throw fields.invalid("minimumInterval", "expected 0 to \(Int(Self.maximumInterval.seconds)) seconds, found \(seconds)")
        }
        let passive = try fields.optional("passive", "a boolean") { $0.boolValue }
        var batching: Batching?
        if let batch = try fields.optionalFields("batch") { batching = try Batching(batch) }
        self.init(distanceFilter: distance, minimumInterval: .seconds(seconds), batching: batching, isPassive: passive ?? false)
    }

    /// Writes the members of a `startLiveUpdates` request: the configuration, and each option
    /// that is not its default.
    func writeParameters(configuration: LiveConfiguration, to buffer: inout JSONBuffer) {
        buffer.member("configuration", text: configuration.rawValue)
        if distanceFilter > 0 { buffer.member("distanceFilter", number: distanceFilter) }
        if minimumInterval > .zero { buffer.member("minimumInterval", number: minimumInterval.seconds) }
        if let batching { batching.write(to: &buffer) }
        if isPassive { buffer.member("passive", true) }
    }
}

extension Batching {
    /// Decodes a `batch` object: `timeout` (seconds, 0 ... ``DeliveryOptions/maximumInterval``,
    /// required), `distance` (metres, finite and positive; default none) and `capacity`
    /// (1 ... ``maximumCapacity``; default ``defaultCapacity``).
    init(_ fields: Fields) throws(ProtocolError) {
        let seconds = try fields.double("timeout")
        guard seconds >= 0, seconds <= DeliveryOptions.maximumInterval.seconds else {
            throw fields.invalid("timeout", "expected 0 to \(Int(DeliveryOptions.maximumInterval.seconds)) seconds, found \(seconds)")
        }
        let distance = try fields.optionalDouble("distance")
        if let distance, !(distance > 0 && distance.isFinite) {
            throw fields.invalid("distance", "expected a finite number of metres above 0, found \(distance)")
        }
        let capacity = try fields.optionalInteger("capacity") ?? Self.defaultCapacity
        guard (1...Self.maximumCapacity).contains(capacity) else {
            throw fields.invalid("capacity", "expected 1 to \(Self.maximumCapacity) updates, found \(capacity)")
        }
        self.init(distance: distance, timeout: .seconds(seconds), capacity: capacity)
    }

    /// Writes the `batch` member of a `startLiveUpdates` request.
    func write(to buffer: inout JSONBuffer) {
        buffer.key("batch")
        buffer.beginObject()
        buffer.member("timeout", number: timeout.seconds)
        if let distance { buffer.member("distance", number: distance) }
        buffer.member("capacity", capacity)
        buffer.endObject()
    }
}
