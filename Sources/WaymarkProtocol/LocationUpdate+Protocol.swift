import WaymarkJSON
import WaymarkLocation

extension LocationUpdate {
    /// The update as the protocol's `update` object:
    /// `{"location":{…}|null,"isStationary":false,"diagnostics":["locationUnavailable"]}`.
    public var json: JSONValue {
        [
            "location": location?.json ?? .null,
            "isStationary": .bool(isStationary),
            "diagnostics": diagnostics.json,
        ]
    }

    /// Decodes an `update` object.
    init(_ fields: Fields) throws(ProtocolError) {
        let location = try fields.optionalFields("location").map { (fields) throws(ProtocolError) in try Location(fields) }
        self.init(
            location: location, isStationary: try fields.bool("isStationary"),
            diagnostics: try Diagnostics(names: fields.strings("diagnostics")))
    }
}

extension Diagnostics {
    /// The names of the diagnostics that are set, as a JSON array.
    public var json: JSONValue {
        .array(names.map(JSONValue.string))
    }

    /// The diagnostics named in `names`; names this version does not know are ignored, so a
    /// newer daemon may add some.
    init(names: [String]) {
        self.init()
        for name in names { set(named: name) }
    }
}
