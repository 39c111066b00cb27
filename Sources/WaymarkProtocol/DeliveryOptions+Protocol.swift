import WaymarkClock
import WaymarkJSON
package import WaymarkLocation

extension DeliveryOptions {
    /// The longest `minimumInterval` a request may ask for: a day.
    package static let maximumInterval = Duration.seconds(86_400)

    /// Decodes `distanceFilter` (metres, finite, at least 0; default 0), `minimumInterval`
    /// (seconds, 0 ... ``maximumInterval``; default 0) and `passive` (default false).
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
        self.init(distanceFilter: distance, minimumInterval: .seconds(seconds), isPassive: passive ?? false)
    }

    /// Writes the members of a `startLiveUpdates` request: the configuration, and each option
    /// that is not its default.
    func writeParameters(configuration: LiveConfiguration, to buffer: inout JSONBuffer) {
        buffer.member("configuration", text: configuration.rawValue)
        if distanceFilter > 0 { buffer.member("distanceFilter", number: distanceFilter) }
        if minimumInterval > .zero { buffer.member("minimumInterval", number: minimumInterval.seconds) }
        if isPassive { buffer.member("passive", true) }
    }
}
