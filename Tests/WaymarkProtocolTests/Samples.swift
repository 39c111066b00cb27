import WaymarkLocation
import WaymarkProtocol

/// Values with every field set to something that does not round-trip by accident.
enum Samples {
    static var location: Location {
        var satellites = SatelliteCounts()
        satellites.inView[Constellation.gps.rawValue] = 11
        satellites.used[Constellation.gps.rawValue] = 8
        satellites.inView[Constellation.galileo.rawValue] = 6
        satellites.used[Constellation.galileo.rawValue] = 5
        return Location(
            latitude: -33.856784412345678, longitude: 151.21310800000001, altitude: 12.3456789,
            ellipsoidalAltitude: 34.6, horizontalAccuracy: 4.8, verticalAccuracy: 7.2000000000000002,
            speed: 1.5, speedAccuracy: 0.35, isVelocityDerived: true, course: 270.125, courseAccuracy: 12.5,
            timestamp: Timestamp(date: CivilDate(year: 2024, month: 6, day: 1), hour: 12, minute: 34, second: 56, nanoseconds: 123_456_789)!,
            sourceInformation: SourceInformation(isSimulatedBySoftware: true, isProducedByAccessory: false),
            mode: .threeDimensional, receiverMode: .twoDimensional, quality: .differential,
            dilution: DilutionOfPrecision(horizontal: 0.9, vertical: nil, position: 1.7),
            satellites: satellites)
    }

    static var status: StatusReport {
        var diagnostics = Diagnostics()
        diagnostics.locationUnavailable = true
        return StatusReport(
            daemonVersion: "0.1.0", uptime: 3_600.25,
            source: .init(kind: "simulated", description: "simulated board, scenario walk", isSimulated: true),
            receiverPowerState: "off", receiverPowerSince: 3_500.5, lastLocation: location, isStationary: true,
            clients: 2, liveSubscriptions: 3, pendingRequests: 1, diagnostics: diagnostics,
            powerLedger: [.init(state: "tracking", seconds: 3_500.5, milliwattHours: 82.4), .init(state: "off", seconds: 99.75, milliwattHours: 0.01)],
            transitions: 4, eventLoop: .init(timers: 3, descriptors: 9))
    }
}
