import WaymarkClock
import WaymarkJSON
import WaymarkLocation

extension LastKnownLocation? {
    /// Writes the members of the reply to `lastKnownLocation`: `location` (`null` when the
    /// daemon has none) and `age` in seconds with it.
    func writeMembers(to buffer: inout JSONBuffer) {
        buffer.key("location")
        guard let last = self else {
            buffer.null()
            return
        }
        last.location.write(to: &buffer)
        buffer.member("age", number: last.age.seconds)
    }
}

extension LastKnownLocation {
    /// Decodes the result of `lastKnownLocation`: none when `location` is `null`, else the
    /// location and its `age` (seconds, finite, at least 0).
    static func decode(_ fields: Fields) throws(ProtocolError) -> LastKnownLocation? {
        guard let location = try fields.optionalFields("location") else { return nil }
        let age = try fields.double("age")
        guard age >= 0, age.isFinite else { throw fields.invalid("age", "expected a finite number of seconds, at least 0, found \(age)") }
        return LastKnownLocation(location: try Location(location), age: .seconds(age))
    }
}
