package import WaymarkJSON
package import WaymarkLocation

extension Location {
    /// The location as the protocol's `location` object: every field, numbers in their
    /// shortest exact form, so it decodes to an equal `Location`. Written straight into
    /// `buffer` (an update goes out at every fix: no intermediate tree).
    package func write(to buffer: inout JSONBuffer) {
        buffer.beginObject()
        buffer.member("latitude", number: latitude)
        buffer.member("longitude", number: longitude)
        buffer.member("altitude", number: altitude)
        buffer.member("ellipsoidalAltitude", number: ellipsoidalAltitude)
        buffer.member("horizontalAccuracy", number: horizontalAccuracy)
        buffer.member("verticalAccuracy", number: verticalAccuracy)
        buffer.member("speed", number: speed)
        buffer.member("speedAccuracy", number: speedAccuracy)
        buffer.member("course", number: course)
        buffer.member("courseAccuracy", number: courseAccuracy)
        buffer.member("isVelocityDerived", isVelocityDerived)
        buffer.key("timestamp")
        buffer.string(unescaped: timestamp.appendProtocolText)
        buffer.key("sourceInformation")
        buffer.beginObject()
        buffer.member("isSimulatedBySoftware", sourceInformation.isSimulatedBySoftware)
        buffer.member("isProducedByAccessory", sourceInformation.isProducedByAccessory)
        buffer.endObject()
        buffer.key("mode")
        buffer.string(mode.protocolName)
        if let receiverMode {
            buffer.key("receiverMode")
            buffer.string(receiverMode.protocolName)
        }
        buffer.key("quality")
        buffer.string(quality.protocolName)
        buffer.key("dilution")
        buffer.beginObject()
        if let horizontal = dilution.horizontal { buffer.member("horizontal", number: horizontal) }
        if let vertical = dilution.vertical { buffer.member("vertical", number: vertical) }
        if let position = dilution.position { buffer.member("position", number: position) }
        buffer.endObject()
        buffer.key("satellites")
        buffer.beginObject()
        buffer.key("inView")
        satellites.write(satellites.inView, to: &buffer)
        buffer.key("used")
        satellites.write(satellites.used, to: &buffer)
        buffer.endObject()
        buffer.endObject()
    }

    /// Decodes a `location` object.
    init(_ fields: Fields) throws(ProtocolError) {
        let source = try fields.fields("sourceInformation")
        let dilution = try fields.fields("dilution")
        let satellites = try fields.fields("satellites")
        self.init(
            latitude: try fields.double("latitude", in: -90...90), longitude: try fields.double("longitude", in: -180...180),
            altitude: try fields.double("altitude"), ellipsoidalAltitude: try fields.double("ellipsoidalAltitude"),
            horizontalAccuracy: try fields.double("horizontalAccuracy"),
            verticalAccuracy: try fields.double("verticalAccuracy"),
            speed: try fields.double("speed"), speedAccuracy: try fields.double("speedAccuracy"),
            // Absent from older daemons' locations: they derived nothing.
            isVelocityDerived: try fields.optional("isVelocityDerived", "a boolean") { $0.boolValue } ?? false,
            course: try fields.double("course"), courseAccuracy: try fields.double("courseAccuracy"),
            timestamp: try fields.timestamp("timestamp"),
            sourceInformation: SourceInformation(
                isSimulatedBySoftware: try source.bool("isSimulatedBySoftware"),
                isProducedByAccessory: try source.bool("isProducedByAccessory")),
            mode: try fields.named("mode", as: FixMode.self),
            receiverMode: try fields.optionalNamed("receiverMode", as: FixMode.self), quality: try fields.named("quality", as: FixQuality.self),
            dilution: DilutionOfPrecision(
                horizontal: try dilution.optionalDouble("horizontal"),
                vertical: try dilution.optionalDouble("vertical"),
                position: try dilution.optionalDouble("position")),
            satellites: try SatelliteCounts(
                inView: try satellites.fields("inView"), used: try satellites.fields("used")))
    }

    /// Decodes a `location` object from JSON.
    package init(json: JSONValue) throws(ProtocolError) {
        try self.init(Fields(json, at: "location"))
    }
}

extension SatelliteCounts {
    /// Per-constellation counts as an object of the non-zero ones: `{"gps":8,"galileo":5}`.
    fileprivate func write(_ counts: InlineArray<8, Int>, to buffer: inout JSONBuffer) {
        buffer.beginObject()
        for constellation in Constellation.allCases where counts[constellation.rawValue] != 0 {
            buffer.key(constellation.protocolName)
            buffer.integer(counts[constellation.rawValue])
        }
        buffer.endObject()
    }

    fileprivate init(inView: Fields, used: Fields) throws(ProtocolError) {
        self.init()
        for constellation in Constellation.allCases {
            let name = constellation.protocolName
            self.inView[constellation.rawValue] = try inView.optionalInteger(name) ?? 0
            self.used[constellation.rawValue] = try used.optionalInteger(name) ?? 0
        }
    }
}

extension Constellation: ProtocolNamed {
    static var everyValue: [Constellation] { allCases }
    var protocolName: String { name }
}

extension FixMode: ProtocolNamed {
    static var everyValue: [FixMode] { [.noFix, .twoDimensional, .threeDimensional] }

    /// `noFix`, `twoDimensional` or `threeDimensional`.
    var protocolName: String {
        switch self {
        case .noFix: "noFix"
        case .twoDimensional: "twoDimensional"
        case .threeDimensional: "threeDimensional"
        }
    }
}

extension FixQuality: ProtocolNamed {
    static var everyValue: [FixQuality] {
        [.unknown, .autonomous, .differential, .rtkFixed, .rtkFloat, .deadReckoning, .gnssDeadReckoning, .timeOnly, .simulated]
    }

    /// The case's name, such as `autonomous` or `rtkFixed`.
    var protocolName: String {
        switch self {
        case .unknown: "unknown"
        case .autonomous: "autonomous"
        case .differential: "differential"
        case .rtkFixed: "rtkFixed"
        case .rtkFloat: "rtkFloat"
        case .deadReckoning: "deadReckoning"
        case .gnssDeadReckoning: "gnssDeadReckoning"
        case .timeOnly: "timeOnly"
        case .simulated: "simulated"
        }
    }
}
