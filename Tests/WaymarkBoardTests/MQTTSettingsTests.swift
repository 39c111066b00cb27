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
