import WaymarkJSON
import WaymarkLocation
import WaymarkNMEA

extension Location {
    /// The location as the protocol's `location` object: every field, numbers in their
    /// shortest exact form, so it decodes to an equal `Location`.
    public var json: JSONValue {
        var object: JSONObject = [
            "latitude": .double(latitude), "longitude": .double(longitude),
            "altitude": .double(altitude), "ellipsoidalAltitude": .double(ellipsoidalAltitude),
            "horizontalAccuracy": .double(horizontalAccuracy), "verticalAccuracy": .double(verticalAccuracy),
            "speed": .double(speed), "speedAccuracy": .double(speedAccuracy),
            "course": .double(course), "courseAccuracy": .double(courseAccuracy),
            "timestamp": .string(timestamp.protocolText),
            "sourceInformation": [
                "isSimulatedBySoftware": .bool(sourceInformation.isSimulatedBySoftware),
                "isProducedByAccessory": .bool(sourceInformation.isProducedByAccessory),
            ],
            "mode": .string(mode.protocolName), "quality": .string(quality.protocolName),
        ]
        var dilution = JSONObject()
        dilution["horizontal"] = self.dilution.horizontal.map(JSONValue.double)
        dilution["vertical"] = self.dilution.vertical.map(JSONValue.double)
        dilution["position"] = self.dilution.position.map(JSONValue.double)
        object["dilution"] = .object(dilution)
        object["satellites"] = ["inView": satellites.json(satellites.inView), "used": satellites.json(satellites.used)]
        return .object(object)
    }

    /// Decodes a `location` object.
    init(_ fields: Fields) throws(ProtocolError) {
        let source = try fields.fields("sourceInformation")
        let dilution = try fields.fields("dilution")
        let satellites = try fields.fields("satellites")
        self.init(
            latitude: try fields.double("latitude"), longitude: try fields.double("longitude"),
            altitude: try fields.double("altitude"), ellipsoidalAltitude: try fields.double("ellipsoidalAltitude"),
            horizontalAccuracy: try fields.double("horizontalAccuracy"),
            verticalAccuracy: try fields.double("verticalAccuracy"),
            speed: try fields.double("speed"), speedAccuracy: try fields.double("speedAccuracy"),
            course: try fields.double("course"), courseAccuracy: try fields.double("courseAccuracy"),
            timestamp: try fields.timestamp("timestamp"),
            sourceInformation: SourceInformation(
                isSimulatedBySoftware: try source.bool("isSimulatedBySoftware"),
                isProducedByAccessory: try source.bool("isProducedByAccessory")),
            mode: try fields.named("mode", as: FixMode.self), quality: try fields.named("quality", as: FixQuality.self),
            dilution: DilutionOfPrecision(
                horizontal: try dilution.optionalDouble("horizontal"),
                vertical: try dilution.optionalDouble("vertical"),
                position: try dilution.optionalDouble("position")),
            satellites: try SatelliteCounts(
                inView: try satellites.fields("inView"), used: try satellites.fields("used")))
    }

    /// Decodes a `location` object from JSON.
    public init(json: JSONValue) throws(ProtocolError) {
        try self.init(Fields(json, at: "location"))
    }
}

extension SatelliteCounts {
    /// Per-constellation counts as an object of the non-zero ones: `{"gps":8,"galileo":5}`.
    fileprivate func json(_ counts: InlineArray<8, Int>) -> JSONValue {
        var object = JSONObject()
        for constellation in Constellation.allCases where counts[constellation.rawValue] != 0 {
            object[constellation.protocolName] = .integer(Int64(counts[constellation.rawValue]))
        }
        return .object(object)
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
