import Testing
import WaymarkBoard

/// The `[mqtt]` table: defaults, and hostile values refused with file, line and key.
@Suite struct MQTTSettingsTests {
    static let valid = """
        [mqtt]
        host = "broker.example.org"
        user = "jane"
        device = "rpi4"
        """

    @Test func defaultsFollowOwnTracks() throws {
        let settings = try MQTTSettings.parse(Self.valid, file: "mqtt.toml")
        #expect(settings.port == 1_883)
        #expect(settings.trackerID == "i4")
        #expect(settings.clientID == "waymark-jane-rpi4")
        #expect(settings.keepAlive == 60)
        #expect(settings.outboxLimit == MQTTSettings.defaultOutboxLimit)
        #expect(settings.caFile == nil && settings.username == nil)
    }

    @Test func tlsMovesTheDefaultPort() throws {
        let settings = try MQTTSettings.parse(Self.table("ca_file", "\"/etc/ssl/ca.pem\""), file: "mqtt.toml")
        #expect(settings.port == 8_883)
    }

    /// The valid table with `key` set to `value` (replacing it if present, else on line 5).
    static func table(_ key: String, _ value: String) -> String {
        let lines = valid.split(separator: "\n").map { $0.hasPrefix(key + " = ") ? Substring("\(key) = \(value)") : $0 }
        let replaced = lines.joined(separator: "\n")
        return replaced == valid ? valid + "\n\(key) = \(value)" : replaced
    }

    @Test(arguments: [
        ("user", "\"a/b\"", "mqtt.toml:3: mqtt.user: \"a/b\" cannot be one level of an MQTT topic"),
        ("device", "\"#\"", "mqtt.toml:4: mqtt.device: \"#\" cannot be one level of an MQTT topic"),
        ("host", "\"a\\nb\"", "mqtt.toml:2: mqtt.host: control characters are not allowed"),
        ("tid", "\"abc\"", "mqtt.toml:5: mqtt.tid: \"abc\" is not a tracker ID"),
        ("port", "70000", "mqtt.toml:5: mqtt.port: 70000 is out of range 1...65535"),
        // 1883.0 was "out of range 1...65535"; a number beyond Int was "not a value (strings need quotes)".
        ("port", "1883.0", "mqtt.toml:5: mqtt.port: 1883.0 is not a whole number from 1 to 65535"),
        ("port", "99999999999999999999999", "mqtt.toml:5: syntax: '99999999999999999999999' is beyond the largest whole number, 9223372036854775807"),
        // A 5,000-byte host filled every log line of its connection failures.
        ("host", "\"" + String(repeating: "a", count: 254) + "\"", "mqtt.toml:2: mqtt.host: longer than a host name can be (253 bytes)"),
        ("keepalive", "0", "mqtt.toml:5: mqtt.keepalive: 0 is out of range 5...65535"),
        ("outbox_limit", "-1", "mqtt.toml:5: mqtt.outbox_limit: -1 is out of range 1...1000000"),
        ("ca_file", "\"ca.pem\"", "mqtt.toml:5: mqtt.ca_file: \"ca.pem\" is not an absolute path"),
        ("cert_file", "\"/c.pem\"", "mqtt.toml:1: mqtt.key_file: a client certificate needs both its file and its key"),
        ("password_file", "\"/p\"", "mqtt.toml:1: mqtt.username: a password without a user name"),
        ("pasword_file", "\"/p\"", "mqtt.toml:5: mqtt.pasword_file: unknown key"),
    ])
    func hostileValuesAreRefusedWithFileLineAndKey(key: String, value: String, expected: String) {
        let error = #expect(throws: BoardError.self) { try MQTTSettings.parse(Self.table(key, value), file: "mqtt.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(String(describing: error))")
    }

    static func region(_ desc: String = "\"Home\"", lat: String = "47.3769", lon: String = "8.5417", rad: String = "150") -> String {
        "\n[[mqtt.region]]\ndesc = \(desc)\nlat = \(lat)\nlon = \(lon)\nrad = \(rad)\n"
    }

    @Test func regionsAreReadInFileOrder() throws {
        let settings = try MQTTSettings.parse(Self.valid + Self.region() + Self.region("\"Office\"", lat: "-33.9", lon: "-70", rad: "80.5"), file: "mqtt.toml")
        #expect(settings.regions == [
            MQTTSettings.Region(name: "Home", latitude: 47.3769, longitude: 8.5417, radius: 150),
            MQTTSettings.Region(name: "Office", latitude: -33.9, longitude: -70, radius: 80.5),
        ])
        #expect(try MQTTSettings.parse(Self.valid, file: "mqtt.toml").regions.isEmpty)
    }

    @Test(arguments: [
        (region(lat: "90.5"), "mqtt.toml:7: mqtt.region[0].lat: 90.5 is not a number in -90.0...90.0"),
        (region(lon: "\"east\""), "mqtt.toml:8: mqtt.region[0].lon: \"east\" is not a number in -180.0...180.0"),
        (region(rad: "0"), "mqtt.toml:9: mqtt.region[0].rad: 0 is not a number in 1.0...100000.0"),
        (region("\"a\\tb\""), "mqtt.toml:6: mqtt.region[0].desc: \"a\tb\" cannot name a region"),
        (region("\"" + String(repeating: "x", count: 129) + "\""), "mqtt.toml:6: mqtt.region[0].desc: \"xxx"),
        (region() + region(), "mqtt.toml:12: mqtt.region[1].desc: a second region named \"Home\""),
        (String(repeating: region(), count: 21), "mqtt.toml:125: mqtt.region[20].desc: more than 20 regions"),
        (region() + "radius = 3\n", "mqtt.toml:10: mqtt.region[0].radius: unknown key"),
    ])
    func hostileRegionsAreRefusedWithFileLineAndKey(regions: String, expected: String) {
        let error = #expect(throws: BoardError.self) { try MQTTSettings.parse(Self.valid + regions, file: "mqtt.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(String(describing: error))")
    }

    @Test func aBoardFileMayCarryTheTable() throws {
        let board = """
            name = "sim"
            simulated = true
            [receiver]
            model = "m"
            family = "ublox"
            [receiver.current_ma]
            acquisition = 1
            tracking = 1
            standby = 1
            backup = 1
            [power]
            strategy = "none"
            """
        #expect(try BoardDefinition.parse(board, file: "b.toml").mqtt == nil)
        #expect(try BoardDefinition.parse(board + "\n" + Self.valid, file: "b.toml").mqtt?.device == "rpi4")
    }

    @Test func aFileWithoutTheTableIsRefused() {
        #expect(throws: BoardError.self) { try MQTTSettings.parse("name = \"x\"", file: "mqtt.toml") }
    }

    @Test func thePasswordIsTheFirstLineOfABoundedFile() throws {
        var settings = try MQTTSettings.parse(Self.valid, file: "mqtt.toml")
        settings.passwordFile = "/dev/zero"
        let error = #expect(throws: BoardError.self) { try settings.password() }
        #expect(error?.problem == "longer than 4096 bytes")
        settings.passwordFile = nil
        #expect(try settings.password() == nil)
    }
}
