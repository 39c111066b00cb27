/// Where and as whom `waymark-mqtt` publishes: the `[mqtt]` table of a board file or of a file
/// of its own (`waymark-mqtt --config`). docs/ecosystem.md lists the keys.
package struct MQTTSettings: Hashable, Sendable {
    /// The broker's host name or address.
    package var host: String
    /// The broker's port: 1883, or 8883 with TLS, unless set.
    package var port: Int
    /// The OwnTracks user, the second level of `owntracks/<user>/<device>`.
    package var user: String
    /// The OwnTracks device, the third level of the topic.
    package var device: String
    /// The tracker ID apps show on the map: the last two characters of the device unless set,
    /// as OwnTracks does.
    package var trackerID: String
    /// The MQTT client identifier: `waymark-<user>-<device>` unless set.
    package var clientID: String
    /// The broker's user name, when it asks for one.
    package var username: String?
    /// A file holding the password (its first line): never the command line.
    package var passwordFile: String?
    /// TLS: the certificate authorities to trust the broker by (TLS is on when set).
    package var caFile: String?
    /// TLS client certificate and its key (both or neither), for brokers that ask for one.
    package var certificateFile: String?
    /// The client certificate's private key.
    package var keyFile: String?
    /// Seconds of silence before a keep-alive ping; a ping unanswered as long again means the link is lost.
    package var keepAlive: Int
    /// The most messages the outbox keeps while the broker is unreachable; beyond it the
    /// oldest are dropped and counted.
    package var outboxLimit: Int

    /// The regions whose crossings are published as OwnTracks `transition` messages, in file order.
    package var regions: [Region]

    /// A circular region (`[[mqtt.region]]`): OwnTracks' waypoint, watched by the bridge's monitor.
    package struct Region: Hashable, Sendable {
        /// Its name (`desc`), unique: the monitor condition's identifier and the zone Home Assistant matches.
        package var name: String
        /// The centre's latitude, degrees.
        package var latitude: Double
        /// The centre's longitude, degrees.
        package var longitude: Double
        /// The radius, metres.
        package var radius: Double

        /// A region.
        package init(name: String, latitude: Double, longitude: Double, radius: Double) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.radius = radius
        }
    }

    /// The most regions: the conditions the daemon watches for one app (`CLMonitor`'s 20).
    package static let mostRegions = 20

    /// The longest topic level accepted for `user` and `device` (bytes).
    package static let longestTopicLevel = 64
    /// The default outbox bound: over two hours of one update a second.
    package static let defaultOutboxLimit = 10_000
    /// The largest outbox bound: a million short messages stay within tens of megabytes on disk.
    package static let largestOutboxLimit = 1_000_000

    /// Parses a file holding only an `[mqtt]` table; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(BoardError) -> MQTTSettings {
        var reader = try BoardFileReader(parsing: text, file: file)
        guard let settings = try MQTTSettings(reader: &reader) else {
            throw reader.error("mqtt", "host", line: nil, "missing: the file has no [mqtt] table", fix: "add [mqtt] with host, user and device")
        }
        try reader.rejectUnknownKeys()
        return settings
    }

    /// Reads and parses the settings file at `path`.
    package static func load(path: String) throws(BoardError) -> MQTTSettings {
        try parse(try TextFile.read(path, fix: "pass the path of a file with an [mqtt] table (docs/ecosystem.md)"), file: path)
    }

    /// The password from ``passwordFile``: its first line, without the line end.
    package func password() throws(BoardError) -> String? {
        guard let passwordFile else { return nil }
        let text = try TextFile.read(passwordFile, key: "mqtt.password_file", limit: 4_096, fix: "write the password alone in a small file readable by waymark-mqtt only")
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = line.hasSuffix("\r") ? line.dropLast() : line
        guard !password.isEmpty, !password.utf8.contains(0) else {
            throw BoardError(
                file: passwordFile, line: 1, key: "mqtt.password_file", problem: "the first line holds no password",
                fix: "write the password on the file's first line")
        }
        return String(password)
    }
}

extension MQTTSettings {
    /// Reads `[mqtt]`, or `nil` when the file has none.
    init?(reader: inout BoardFileReader) throws(BoardError) {
        guard reader.hasTable("mqtt") else { return nil }
        let hostFix = "name the broker, e.g. host = \"broker.example.org\""
        host = try reader.requiredString("mqtt", "host", fix: hostFix)
        try reader.refuseUnprintable(host, "mqtt", "host", fix: hostFix)
        // A DNS name is at most 253 characters (RFC 1035); longer filled every log line.
        guard host.utf8.count <= 253 else {
            throw reader.error("mqtt", "host", line: reader.line("mqtt", "host"), "longer than a host name can be (253 bytes)", fix: hostFix)
        }
        let levelFix = "use 1 to \(Self.longestTopicLevel) characters without /, + or #, e.g. \"jane\""
        user = try reader.requiredString("mqtt", "user", fix: levelFix)
        device = try reader.requiredString("mqtt", "device", fix: levelFix)
        for (key, level) in [("user", user), ("device", device)] {
            try reader.refuseUnprintable(level, "mqtt", key, fix: levelFix)
            guard level.utf8.count <= Self.longestTopicLevel, !level.contains(where: { "/+#".contains($0) }) else {
                throw reader.error("mqtt", key, line: reader.line("mqtt", key), "\"\(level)\" cannot be one level of an MQTT topic", fix: levelFix)
            }
        }
        let tidFix = "use one or two letters or digits, e.g. tid = \"jp\""
        trackerID = try reader.string("mqtt", "tid", fix: tidFix) ?? String(device.suffix(2))
        guard (1...2).contains(trackerID.count), trackerID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw reader.error("mqtt", "tid", line: reader.line("mqtt", "tid"), "\"\(trackerID)\" is not a tracker ID", fix: tidFix)
        }
        let clientFix = "use up to 256 letters, digits or -, e.g. client_id = \"waymark-jane-pi\""
        clientID = try reader.string("mqtt", "client_id", fix: clientFix) ?? "waymark-\(user)-\(device)"
        try reader.refuseUnprintable(clientID, "mqtt", "client_id", fix: clientFix)
        guard clientID.utf8.count <= 256 else {
            throw reader.error("mqtt", "client_id", line: reader.line("mqtt", "client_id"), "longer than 256 bytes", fix: clientFix)
        }
        username = try reader.string("mqtt", "username", fix: "give the broker's user name, e.g. username = \"jane\"")
        if let username { try reader.refuseUnprintable(username, "mqtt", "username", fix: "give the broker's user name") }
        let pathFix = "give an absolute path, e.g. \"/etc/waymark/mqtt-password\""
        passwordFile = try reader.absolutePath("mqtt", "password_file", fix: pathFix)
        caFile = try reader.absolutePath("mqtt", "ca_file", fix: "give the CA bundle, e.g. \"/etc/ssl/certs/ca-certificates.crt\"")
        certificateFile = try reader.absolutePath("mqtt", "cert_file", fix: pathFix)
        keyFile = try reader.absolutePath("mqtt", "key_file", fix: pathFix)
        if (certificateFile == nil) != (keyFile == nil) {
            throw reader.error("mqtt", certificateFile == nil ? "cert_file" : "key_file", line: nil, "a client certificate needs both its file and its key", fix: "set both cert_file and key_file, or neither")
        }
        if certificateFile != nil, caFile == nil {
            throw reader.error("mqtt", "ca_file", line: nil, "a client certificate needs TLS", fix: "set ca_file to the CA that signed the broker's certificate")
        }
        if passwordFile != nil, username == nil {
            throw reader.error("mqtt", "username", line: nil, "a password without a user name", fix: "set username, or remove password_file")
        }
        port = try reader.integer("mqtt", "port", in: 1...65_535, fix: "use the broker's port, e.g. 1883 (8883 for TLS)") ?? (caFile == nil ? 1_883 : 8_883)
        keepAlive = try reader.integer("mqtt", "keepalive", in: 5...65_535, fix: "use 5 to 65535 seconds, e.g. 60") ?? 60
        outboxLimit = try reader.integer("mqtt", "outbox_limit", in: 1...Self.largestOutboxLimit, fix: "use 1 to \(Self.largestOutboxLimit) messages") ?? Self.defaultOutboxLimit
        regions = try Self.regions(reader: &reader)
    }

    /// Reads the `[[mqtt.region]]` tables: at most ``mostRegions``, names unique, printable and
    /// 1 to 128 bytes (a monitor condition's identifier), the centre on Earth, the radius 1 m to 100 km.
    private static func regions(reader: inout BoardFileReader) throws(BoardError) -> [Region] {
        let table = "mqtt.region"
        let count = reader.tableCount(table)
        guard count <= mostRegions else {
            throw reader.error(table, "desc", index: mostRegions, line: nil, "more than \(mostRegions) regions", fix: "keep at most \(mostRegions) [[mqtt.region]] tables")
        }
        var regions: [Region] = []
        for index in 0..<count {
            let nameFix = "name the region in 1 to 128 printable bytes, e.g. desc = \"Home\""
            let name = try reader.requiredString(table, "desc", index: index, fix: nameFix)
            let line = reader.document.tableArrays[table]?[index].entries["desc"]?.line
            guard name.utf8.count <= 128, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw reader.error(table, "desc", index: index, line: line, "\"\(name)\" cannot name a region", fix: nameFix)
            }
            guard !regions.contains(where: { $0.name == name }) else {
                throw reader.error(table, "desc", index: index, line: line, "a second region named \"\(name)\"", fix: "give each region a name of its own")
            }
            regions.append(
                Region(
                    name: name,
                    latitude: try reader.number(table, "lat", index: index, in: -90...90, fix: "give the centre's latitude in degrees, e.g. lat = 47.3769"),
                    longitude: try reader.number(table, "lon", index: index, in: -180...180, fix: "give the centre's longitude in degrees, e.g. lon = 8.5417"),
                    radius: try reader.number(table, "rad", index: index, in: 1...100_000, fix: "give the radius in metres, 1 to 100000, e.g. rad = 150")))
        }
        return regions
    }
}

extension BoardFileReader {
    /// Reads a file's text: a board file's parser ready to read it, or a syntax error.
    init(parsing text: String, file: String) throws(BoardError) {
        do throws(TOMLParser.SyntaxError) {
            self.init(file: file, document: try TOMLParser.parse(text))
        } catch {
            throw BoardError(
                file: file, line: error.line, key: "syntax", problem: error.message,
                fix: "write it as TOML: key = \"text\", key = 123, key = true, key = [\"a\", \"b\"]")
        }
    }

    /// The line of `key` in `table`, when the file has it.
    func line(_ table: String, _ key: String) -> Int? {
        document.tables[table]?.entries[key]?.line
    }

    /// An absolute path at `key`, or `nil` when absent.
    mutating func absolutePath(_ table: String, _ key: String, fix: String) throws(BoardError) -> String? {
        guard let path = try string(table, key, fix: fix) else { return nil }
        guard path.hasPrefix("/") else {
            throw error(table, key, line: line(table, key), "\"\(path)\" is not an absolute path", fix: fix)
        }
        try refuseUnprintable(path, table, key, fix: fix)
        return path
    }

    /// Refuses text with control characters (a NUL would cut it short on its way to C).
    func refuseUnprintable(_ text: String, _ table: String, _ key: String, fix: String) throws(BoardError) {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return }
        throw error(table, key, line: line(table, key), "control characters are not allowed", fix: fix)
    }
}
