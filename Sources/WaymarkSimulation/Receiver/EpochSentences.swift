import WaymarkReceiver
import WaymarkLocation
import WaymarkNMEA

/// Writes an epoch as the sentences a receiver sends, in its layout's order: with a fix
/// (status A, quality 1, 3D), or without (status V, quality 0, GSA fix type 1, DOPs 99.99).
struct EpochSentences {
    let report: EpochReport
    /// Talker of the position sentences: GN for several constellations, else the one.
    let talker: Talker

    /// Geoid separation printed with every fix (the geoid near the scenarios' start; there
    /// is no geoid model), metres.
    static let geoidSeparation = 47.0
    private static let noDilution = NMEADecimal(significand: 9_999, scale: 2)
    private static let knotsPerMetrePerSecond = 1.943_844

    init(report: EpochReport) {
        self.report = report
        talker = report.sky.count > 1 ? .combined : (report.sky.first?.talker ?? .gps)
    }

    /// The sentences in the layout's order.
    func sentences(layout: ReceiverProfile.SentenceLayout, gst: Bool) -> [ParsedSentence] {
        let statistics = gst && report.solution != nil ? [sentence(.gst(makeGST()))] : []
        switch layout {
        case .ublox:
            return [sentence(.rmc(makeRMC())), sentence(.vtg(makeVTG())), sentence(.gga(makeGGA()))]
                + makeGSAs() + makeGSVs() + statistics + [sentence(.gll(makeGLL()))]
        case .mediatek:
            return [sentence(.gga(makeGGA()))] + makeGSAs() + makeGSVs() + statistics
                + [sentence(.rmc(makeRMC())), sentence(.vtg(makeVTG()))]
        }
    }

    private func sentence(_ message: NMEAMessage, talker: Talker? = nil) -> ParsedSentence {
        ParsedSentence(talker: talker ?? self.talker, message: message)
    }

    private var time: TimeOfDay? { report.time?.timeOfDay }
    private var mode: ModeIndicator { report.solution == nil ? .notValid : .autonomous }
    private var status: UInt8 { UInt8(ascii: report.solution == nil ? "V" : "A") }
    private var latitude: NMEACoordinate? { report.solution.map { NMEACoordinate(degrees: $0.position.latitude, scale: 5) } }
    private var longitude: NMEACoordinate? { report.solution.map { NMEACoordinate(degrees: $0.position.longitude, scale: 5) } }

    private func makeRMC() -> RMC {
        var rmc = RMC()
        rmc.time = time
        rmc.status = status
        rmc.latitude = latitude
        rmc.longitude = longitude
        rmc.speedKnots = report.solution.map { NMEADecimal($0.speed * Self.knotsPerMetrePerSecond, scale: 3) }
        rmc.course = report.solution?.course.map { NMEADecimal($0, scale: 2) }
        rmc.date = report.time?.nmeaDate
        rmc.mode = mode
        return rmc
    }

    private func makeVTG() -> VTG {
        var vtg = VTG()
        vtg.courseTrue = report.solution?.course.map { NMEADecimal($0, scale: 2) }
        vtg.speedKnots = report.solution.map { NMEADecimal($0.speed * Self.knotsPerMetrePerSecond, scale: 3) }
        vtg.speedKilometresPerHour = report.solution.map { NMEADecimal($0.speed * 3.6, scale: 3) }
        vtg.mode = mode
        return vtg
    }

    private func makeGGA() -> GGA {
        var gga = GGA()
        gga.time = time
        gga.latitude = latitude
        gga.longitude = longitude
        gga.quality = report.solution == nil ? 0 : 1
        gga.satellitesUsed = report.solution?.satellitesUsed ?? 0
        gga.hdop = report.solution.map { NMEADecimal($0.hdop, scale: 2) } ?? Self.noDilution
        gga.altitude = report.solution.map { NMEADecimal($0.position.altitude, scale: 1) }
        gga.geoidSeparation = report.solution.map { _ in NMEADecimal(Self.geoidSeparation, scale: 1) }
        return gga
    }

    private func makeGSAs() -> [ParsedSentence] {
        report.sky.map { sky in
            var gsa = GSA(satellites: sky.used)
            gsa.selection = UInt8(ascii: "A")
            gsa.fixType = report.solution == nil ? 1 : 3
            gsa.pdop = report.solution.map { NMEADecimal($0.pdop, scale: 2) } ?? Self.noDilution
            gsa.hdop = report.solution.map { NMEADecimal($0.hdop, scale: 2) } ?? Self.noDilution
            gsa.vdop = report.solution.map { NMEADecimal($0.vdop, scale: 2) } ?? Self.noDilution
            return sentence(.gsa(gsa))
        }
    }

    private func makeGSVs() -> [ParsedSentence] {
        report.sky.flatMap { sky in
            let count = max(1, (sky.inView.count + 3) / 4)
            return (0..<count).map { part in
                var gsv = GSV(satellites: Array(sky.inView.dropFirst(part * 4).prefix(4)))
                gsv.messageCount = count
                gsv.messageNumber = part + 1
                gsv.satellitesInView = sky.inView.count
                return sentence(.gsv(gsv), talker: sky.talker)
            }
        }
    }

    private func makeGST() -> GST {
        var gst = GST()
        gst.time = time
        if let solution = report.solution {
            let (north, east, up) = solution.errors
            gst.rangeRMS = NMEADecimal(solution.hdop * 2, scale: 1)
            gst.semiMajor = NMEADecimal(max(north, east), scale: 1)
            gst.semiMinor = NMEADecimal(min(north, east), scale: 1)
            gst.orientation = NMEADecimal(0, scale: 1)
            gst.latitudeError = NMEADecimal(north, scale: 1)
            gst.longitudeError = NMEADecimal(east, scale: 1)
            gst.altitudeError = NMEADecimal(up, scale: 1)
        }
        return gst
    }

    private func makeGLL() -> GLL {
        var gll = GLL()
        gll.latitude = latitude
        gll.longitude = longitude
        gll.time = time
        gll.status = status
        gll.mode = mode
        return gll
    }
}
