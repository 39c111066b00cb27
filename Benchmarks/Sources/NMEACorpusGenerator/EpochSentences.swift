/// Prints an epoch the way a u-blox receiver in NMEA 4.10 mode does, in its order:
/// RMC, VTG, GGA, GSA per constellation, GSV per constellation, GLL, GST, ZDA.
extension SentenceWriter {
    mutating func write(_ epoch: Epoch) {
        writeRMC(epoch)
        writeVTG(epoch)
        writeGGA(epoch)
        for constellation in epoch.constellations {
            writeGSA(epoch, constellation)
        }
        for constellation in epoch.constellations {
            writeGSV(constellation)
        }
        writeGLL(epoch)
        writeGST(epoch)
        writeZDA(epoch)
    }

    /// A one-part `GNTXT` notice.
    mutating func writeText(_ text: StaticString) {
        begin("GNTXT")
        field("01")
        field("01")
        field("02")
        field(text)
        end()
    }

    private mutating func mode(_ epoch: Epoch) {
        if epoch.fix == .none {
            field("N")
        } else {
            field(epoch.differential ? "D" : "A")
        }
    }

    private mutating func position(_ epoch: Epoch) {
        latitude(epoch.latitude)
        longitude(epoch.longitude)
    }

    private mutating func writeRMC(_ epoch: Epoch) {
        begin("GNRMC")
        time(epoch.clock.secondOfDay)
        if epoch.fix == .none {
            field("V")
            emptyFields(6)
        } else {
            field("A")
            position(epoch)
            field(epoch.speed * 1.943_844, decimals: 3)
            course(epoch)
        }
        date(day: epoch.clock.day, month: epoch.clock.month, year: epoch.clock.year)
        emptyFields(2)  // magnetic variation is not computed
        mode(epoch)
        field("V")  // navigational status: u-blox always reports "not valid"
        end()
    }

    private mutating func writeVTG(_ epoch: Epoch) {
        begin("GNVTG")
        if epoch.fix == .none {
            emptyFields(8)
        } else {
            course(epoch)
            field("T")
            emptyFields(1)
            field("M")
            field(epoch.speed * 1.943_844, decimals: 3)
            field("N")
            field(epoch.speed * 3.6, decimals: 3)
            field("K")
        }
        mode(epoch)
        end()
    }

    private mutating func writeGGA(_ epoch: Epoch) {
        begin("GNGGA")
        time(epoch.clock.secondOfDay)
        if epoch.fix == .none {
            emptyFields(4)
            field(0)
            field(0, width: 2)
            field("99.99")
            emptyFields(6)
        } else {
            position(epoch)
            field(epoch.differential ? 2 : 1)
            field(min(12, epoch.usedCount), width: 2)
            field(epoch.hdop, decimals: 2)
            field(epoch.altitude, decimals: 1)
            field("M")
            field(epoch.geoidSeparation, decimals: 1)
            field("M")
            emptyFields(2)  // no age or station for SBAS corrections
        }
        end()
    }

    private mutating func writeGSA(_ epoch: Epoch, _ constellation: Epoch.Constellation) {
        begin("GNGSA")
        field("A")
        switch epoch.fix {
        case .none:
            field(1)
            emptyFields(12)
            field("99.99")
            field("99.99")
            field("99.99")
        case .twoD, .threeD:
            field(epoch.fix == .twoD ? 2 : 3)
            for id in constellation.used {
                field(id, width: 2)
            }
            emptyFields(12 - constellation.used.count)
            field(epoch.pdop, decimals: 2)
            field(epoch.hdop, decimals: 2)
            field(epoch.vdop, decimals: 2)
        }
        field(constellation.systemID)
        end()
    }

    private mutating func writeGSV(_ constellation: Epoch.Constellation) {
        let satellites = constellation.satellites
        let parts = max(1, (satellites.count + 3) / 4)
        for part in 0..<parts {
            switch constellation.systemID {
            case 1: begin("GPGSV")
            case 2: begin("GLGSV")
            case 3: begin("GAGSV")
            default: begin("GBGSV")
            }
            field(parts)
            field(part + 1)
            field(satellites.count, width: 2)
            for satellite in satellites[(part * 4)..<min(satellites.count, part * 4 + 4)] {
                field(satellite.id, width: 2)
                field(satellite.elevation, width: 2)
                field(satellite.azimuth, width: 3)
                if let signal = satellite.signal {
                    field(signal, width: 2)
                } else {
                    emptyFields(1)
                }
            }
            field(constellation.signalID)
            end()
        }
    }

    private mutating func writeGLL(_ epoch: Epoch) {
        begin("GNGLL")
        if epoch.fix == .none {
            emptyFields(4)
        } else {
            position(epoch)
        }
        time(epoch.clock.secondOfDay)
        field(epoch.fix == .none ? "V" : "A")
        mode(epoch)
        end()
    }

    private mutating func writeGST(_ epoch: Epoch) {
        begin("GNGST")
        time(epoch.clock.secondOfDay)
        if epoch.fix == .none {
            emptyFields(7)
        } else {
            let sigma = epoch.hdop * (epoch.differential ? 0.9 : 1.6)
            field(sigma * 1.3, decimals: 1)
            emptyFields(3)  // u-blox leaves the error ellipse out
            field(sigma * 0.9, decimals: 1)
            field(sigma * 1.1, decimals: 1)
            field(epoch.vdop * (epoch.differential ? 1.1 : 1.9), decimals: 1)
        }
        end()
    }

    private mutating func writeZDA(_ epoch: Epoch) {
        begin("GNZDA")
        time(epoch.clock.secondOfDay)
        field(epoch.clock.day, width: 2)
        field(epoch.clock.month, width: 2)
        field(epoch.clock.year, width: 4)
        field("00")
        field("00")
        end()
    }

    private mutating func course(_ epoch: Epoch) {
        if let course = epoch.course {
            field(course, decimals: 2)
        } else {
            emptyFields(1)
        }
    }
}
