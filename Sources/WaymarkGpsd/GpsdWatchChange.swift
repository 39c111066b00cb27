import WaymarkJSON

/// The members of a `?WATCH={...}` object, with gpsd's defaults for those left out
/// (json_watch_read): `enable` true, `scaled`, `split24`, `pps` and `timing` false; a left-out
/// `json`, `nmea`, `raw` or `device` keeps the client's setting.
package struct GpsdWatchChange: Hashable, Sendable {
    /// Why a `?WATCH` argument was refused.
    package struct Invalid: Error, Hashable, Sendable {
        /// What was wrong, for the ERROR reply.
        package var reason: String
    }

    package var enable: Bool?
    package var json: Bool?
    package var nmea: Bool?
    /// gpsd's `raw`: 1 for hex dumps of binary packets, 2 for the bytes as received.
    package var raw: Int?
    package var scaled: Bool?
    package var split24: Bool?
    package var pps: Bool?
    package var timing: Bool?
    /// The one device to watch (`nil`: all of them).
    package var device: String?

    /// No change (`?WATCH;`).
    package init() {}

    /// Reads a `?WATCH` argument: a JSON object whose known members have gpsd's types.
    /// Unknown members are ignored, as gpsd does, so newer clients keep working.
    package init(json text: ArraySlice<UInt8>) throws(Invalid) {
        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: 4, maximumLength: GpsdCommand.maximumLength).parse(text)
        } catch {
            throw Invalid(reason: "not a JSON object")
        }
        guard let object = value.objectValue else { throw Invalid(reason: "not a JSON object") }
        if let class_ = object["class"], class_.stringValue != "WATCH" { throw Invalid(reason: "class is not WATCH") }
        enable = try Self.flag("enable", in: object) ?? true
        json = try Self.flag("json", in: object)
        nmea = try Self.flag("nmea", in: object)
        scaled = try Self.flag("scaled", in: object) ?? false
        split24 = try Self.flag("split24", in: object) ?? false
        pps = try Self.flag("pps", in: object) ?? false
        timing = try Self.flag("timing", in: object) ?? false
        if let raw = object["raw"] {
            guard let level = raw.int64Value, (0...2).contains(level) else { throw Invalid(reason: "raw is not 0, 1 or 2") }
            self.raw = Int(level)
        }
        if let device = object["device"] {
            guard let path = device.stringValue else { throw Invalid(reason: "device is not a string") }
            self.device = path
        }
    }

    private static func flag(_ name: String, in object: JSONObject) throws(Invalid) -> Bool? {
        guard let value = object[name] else { return nil }
        guard let flag = value.boolValue else { throw Invalid(reason: "\(name) is not a boolean") }
        return flag
    }
}
