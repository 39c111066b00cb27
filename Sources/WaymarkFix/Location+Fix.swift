package import WaymarkLocation

extension Location {
    /// Builds a location from a fix that has a position and a time; `nil` otherwise.
    package init?(fix: Fix, isSimulated: Bool, model: AccuracyModel = AccuracyModel()) {
        guard fix.hasPosition, let latitude = fix.latitude, let longitude = fix.longitude, let time = fix.time
        else { return nil }
        let verticalAccuracy = model.verticalAccuracy(of: fix)
        let altitude = verticalAccuracy >= 0 ? fix.altitudeMSL ?? 0 : 0
        self.init(
            latitude: latitude, longitude: longitude,
            altitude: altitude, ellipsoidalAltitude: verticalAccuracy >= 0 ? fix.altitudeHAE ?? altitude : 0,
            horizontalAccuracy: model.horizontalAccuracy(of: fix), verticalAccuracy: verticalAccuracy,
            speed: fix.speed ?? -1, speedAccuracy: model.speedAccuracy(of: fix), isVelocityDerived: fix.derivedVelocity != nil,
            course: fix.course ?? -1, courseAccuracy: model.courseAccuracy(of: fix),
            timestamp: time,
            sourceInformation: SourceInformation(isSimulatedBySoftware: isSimulated),
            mode: fix.mode, receiverMode: fix.receiverMode, quality: fix.quality,
            dilution: DilutionOfPrecision(horizontal: fix.hdop, vertical: fix.vdop, position: fix.pdop),
            satellites: fix.satellites)
    }
}
