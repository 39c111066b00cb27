import Testing
import WaymarkJSON
import WaymarkLocation
import WaymarkProtocol

@Suite("Location JSON")
struct LocationJSONTests {
    @Test func everyFieldRoundTripsExactly() throws {
        let location = Samples.location
        let text = String(decoding: written(location), as: UTF8.self)
        let decoded = try Location(json: JSONParser().parse(text))
        #expect(decoded == location)
        #expect(decoded.latitude.bitPattern == location.latitude.bitPattern)
        #expect(text.contains(#""timestamp":"2024-06-01T12:34:56.123456789Z""#))
        #expect(text.contains(#""satellites":{"inView":{"gps":11,"galileo":6},"used":{"gps":8,"galileo":5}}"#))
        #expect(text.contains(#""dilution":{"horizontal":0.9,"position":1.7}"#))
        #expect(text.contains(#""courseAccuracy":12.5,"isVelocityDerived":true,"#))
        #expect(text.contains(#""mode":"threeDimensional","receiverMode":"twoDimensional","quality":"differential""#))
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_717_245_296_125_000_000, "2024-06-01T12:34:56.125Z"),
        (1_717_245_296_000_250_000, "2024-06-01T12:34:56.000250Z"),
        (1_717_245_296_000_000_001, "2024-06-01T12:34:56.000000001Z"),
    ])
    func timestampsAreExact(nanoseconds: Int64, text: String) throws {
        var location = Samples.location
        location.timestamp = Timestamp(nanosecondsSinceEpoch: nanoseconds)
        let json = try JSONParser().parse(written(location))
        #expect(json.objectValue?["timestamp"] == .string(text))
        #expect(try Location(json: json).timestamp.nanosecondsSinceEpoch == nanoseconds)
    }

    @Test(arguments: [
        (#""latitude":"north""#, "location.latitude: expected a number from -90.0 to 90.0, found a string"),
        (#""timestamp":"yesterday""#, "location.timestamp: expected ISO 8601 UTC such as 2024-06-01T12:00:00.000Z, found \"yesterday\""),
        (#""mode":"4d""#, "location.mode: unknown value \"4d\" (expected one of noFix, twoDimensional, threeDimensional)"),
        (#""sourceInformation":7"#, "location.sourceInformation: expected an object, found a number"),
    ])
    func wrongTypesAreErrors(member: String, message: String) throws {
        var object = try #require(try JSONParser().parse(written(Samples.location)).objectValue)
        let replacement = try #require(try JSONParser().parse("{\(member)}").objectValue)
        for (key, value) in replacement.members { object[key] = value }
        let error = #expect(throws: ProtocolError.self) { try Location(json: .object(object)) }
        #expect(error?.code == .invalidMessage)
        #expect(error?.message == message)
    }

    @Test("members added after version 1's first release may be absent: a location from an older daemon decodes")
    func laterMembersAreOptional() throws {
        var object = try #require(try JSONParser().parse(written(Samples.location)).objectValue)
        object["isVelocityDerived"] = nil
        object["receiverMode"] = nil
        let decoded = try Location(json: .object(object))
        #expect(!decoded.isVelocityDerived)
        #expect(decoded.receiverMode == nil)
        #expect(decoded.speed == Samples.location.speed)
    }

    @Test func missingMembersAreNamed() throws {
        var object = try #require(try JSONParser().parse(written(Samples.location)).objectValue)
        object["speed"] = nil
        let error = #expect(throws: ProtocolError.self) { try Location(json: .object(object)) }
        #expect(error?.message == "location.speed: missing (expected a number)")
    }

    @Test("a coordinate no place has is refused (a latitude of 1e308 was printed by the CLI as 900000000000°)", arguments: [
        ("latitude", 1e308, "location.latitude: expected a number from -90.0 to 90.0, found"), ("latitude", -90.5, "location.latitude: expected a number from -90.0 to 90.0"),
        ("longitude", 180.25, "location.longitude: expected a number from -180.0 to 180.0"),
    ])
    func coordinatesOutOfRange(key: String, value: Double, expected: String) throws {
        var object = try #require(try JSONParser().parse(written(Samples.location)).objectValue)
        object[key] = .double(value)
        let error = #expect(throws: ProtocolError.self) { try Location(json: .object(object)) }
        #expect(error?.message.hasPrefix(expected) == true, "\(String(describing: error))")
    }

    /// The `location` object as ``Location/write(to:)`` writes it.
    private func written(_ location: Location) -> [UInt8] {
        var buffer = JSONBuffer()
        location.write(to: &buffer)
        return buffer.bytes
    }

    @Test func distanceOnTheEllipsoid() {
        var sydney = Samples.location
        var melbourne = Samples.location
        (sydney.latitude, sydney.longitude) = (-33.8688, 151.2093)
        (melbourne.latitude, melbourne.longitude) = (-37.8136, 144.9631)
        // GeographicLib's geodesic distance (Geodesic.WGS84.Inverse): 713 857.665 m.
        #expect(abs(sydney.distance(from: melbourne) - 713_857.665) < 0.001)
        #expect(sydney.distance(from: sydney) == 0)
        var antipode = sydney
        (antipode.latitude, antipode.longitude) = (33.8688, 151.2093 - 180)
        // Nearly antipodal: the spherical fallback, within 0.5 % of GeographicLib's 20 003 931.459 m.
        #expect(abs(antipode.distance(from: sydney) - 20_003_931.459) < 100_000)
    }
}
