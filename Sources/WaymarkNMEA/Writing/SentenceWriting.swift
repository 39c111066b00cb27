// How each sentence type lays out its fields; the inverse of the parsers' initialisers.

extension FieldWriter {
    mutating func write(_ rmc: RMC) {
        time(rmc.time)
        character(rmc.status)
        coordinate(rmc.latitude, degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
        coordinate(rmc.longitude, degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
        decimal(rmc.speedKnots)
        decimal(rmc.course)
        date(rmc.date)
        if let variation = rmc.magneticVariation {
            decimal(NMEADecimal(significand: abs(variation.significand), scale: variation.scale))
            character(variation.significand < 0 ? UInt8(ascii: "W") : UInt8(ascii: "E"))
        } else {
            empty(2)
        }
        mode(rmc.mode)
        character(rmc.navigationStatus)
        trimTrailingEmptyFields(keeping: 11)
    }

    mutating func write(_ gga: GGA) {
        time(gga.time)
        coordinate(gga.latitude, degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
        coordinate(gga.longitude, degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
        integer(gga.quality)
        integer(gga.satellitesUsed, digits: 2)
        decimal(gga.hdop)
        decimal(gga.altitude)
        character(UInt8(ascii: "M"))
        decimal(gga.geoidSeparation)
        character(UInt8(ascii: "M"))
        decimal(gga.differentialAge)
        integer(gga.differentialStation, digits: 4)
    }

    mutating func write(_ gsa: GSA) {
        character(gsa.selection)
        integer(gsa.fixType)
        for index in 0..<max(12, gsa.satelliteCount) {
            integer(index < gsa.satelliteCount ? Int(gsa.satellites[index]) : nil, digits: 2)
        }
        decimal(gsa.pdop)
        decimal(gsa.hdop)
        decimal(gsa.vdop)
        if let system = gsa.systemID { integer(system) }
    }

    mutating func write(_ gsv: GSV) {
        integer(gsv.messageCount)
        integer(gsv.messageNumber)
        integer(gsv.satellitesInView, digits: 2)
        for index in 0..<gsv.satelliteCount {
            let satellite = gsv.satellites[index]
            integer(satellite.number, digits: 2)
            integer(satellite.elevation, digits: 2)
            integer(satellite.azimuth, digits: 3)
            integer(satellite.signalStrength, digits: 2)
        }
        if let signal = gsv.signalID { character(UInt8(ascii: signal < 10 ? "0" : "7") &+ UInt8(clamping: signal)) }
    }

    mutating func write(_ vtg: VTG) {
        decimal(vtg.courseTrue)
        character(UInt8(ascii: "T"))
        decimal(vtg.courseMagnetic)
        character(UInt8(ascii: "M"))
        decimal(vtg.speedKnots)
        character(UInt8(ascii: "N"))
        decimal(vtg.speedKilometresPerHour)
        character(UInt8(ascii: "K"))
        if let mode = vtg.mode { self.mode(mode) }
    }

    mutating func write(_ gll: GLL) {
        coordinate(gll.latitude, degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
        coordinate(gll.longitude, degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
        time(gll.time)
        character(gll.status)
        if let mode = gll.mode { self.mode(mode) }
    }

    mutating func write(_ gns: GNS) {
        time(gns.time)
        coordinate(gns.latitude, degreeDigits: 2, positive: UInt8(ascii: "N"), negative: UInt8(ascii: "S"))
        coordinate(gns.longitude, degreeDigits: 3, positive: UInt8(ascii: "E"), negative: UInt8(ascii: "W"))
        comma()
        for index in 0..<6 {
            guard let mode = gns.modes[index] else { break }
            text(CollectionOfOne(mode.rawValue))
        }
        integer(gns.satellitesUsed, digits: 2)
        decimal(gns.hdop)
        decimal(gns.altitude)
        decimal(gns.geoidSeparation)
        decimal(gns.differentialAge)
        integer(gns.differentialStation, digits: 4)
        character(gns.navigationStatus)
    }

    mutating func write(_ gst: GST) {
        time(gst.time)
        decimal(gst.rangeRMS)
        decimal(gst.semiMajor)
        decimal(gst.semiMinor)
        decimal(gst.orientation)
        decimal(gst.latitudeError)
        decimal(gst.longitudeError)
        decimal(gst.altitudeError)
    }

    mutating func write(_ zda: ZDA) {
        time(zda.time)
        integer(zda.date?.day, digits: 2)
        integer(zda.date?.month, digits: 2)
        integer(zda.date?.year, digits: 4)
        integer(zda.zoneHours, digits: 2)
        integer(zda.zoneMinutes, digits: 2)
    }

    mutating func write(_ txt: TXT) {
        integer(txt.messageCount, digits: 2)
        integer(txt.messageNumber, digits: 2)
        integer(txt.identifier, digits: 2)
        comma()
        text((0..<txt.textLength).map { txt.textBytes[$0] })
    }
}
