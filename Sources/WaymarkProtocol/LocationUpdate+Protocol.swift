package import WaymarkJSON
package import WaymarkLocation

extension LocationUpdate {
    /// The update as the protocol's `update` object, written straight into `buffer`:
    /// `{"location":{…}|null,"isStationary":false,"diagnostics":["locationUnavailable"]}`.
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.key("location")
        if let location { location.write(to: &buffer) } else { buffer.null() }
        buffer.member("isStationary", isStationary)
        buffer.member("diagnostics", strings: diagnostics.names)
        buffer.endObject()
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
    /// The diagnostics named in `names`; names this version does not know are ignored, so a
    /// newer daemon may add some.
    init(names: [String]) {
        self.init()
        for name in names { set(named: name) }
    }
}
