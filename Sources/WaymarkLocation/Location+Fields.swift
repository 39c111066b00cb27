extension Location {
    /// Creates a location from its fields (for decoders, simulations and tests). The defaults
    /// say "unknown" as Core Location does: negative accuracies, speed and course.
    public init(
        latitude: Double, longitude: Double,
        altitude: Double = 0, ellipsoidalAltitude: Double = 0,
        horizontalAccuracy: Double, verticalAccuracy: Double = -1,
        speed: Double = -1, speedAccuracy: Double = -1, isVelocityDerived: Bool = false,
        course: Double = -1, courseAccuracy: Double = -1,
        timestamp: Timestamp,
        sourceInformation: SourceInformation = SourceInformation(isSimulatedBySoftware: false),
        mode: FixMode = .twoDimensional, receiverMode: FixMode? = nil, quality: FixQuality = .autonomous,
        dilution: DilutionOfPrecision = DilutionOfPrecision(),
        satellites: SatelliteCounts = SatelliteCounts()
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.ellipsoidalAltitude = ellipsoidalAltitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.isVelocityDerived = isVelocityDerived
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.timestamp = timestamp
        self.sourceInformation = sourceInformation
        self.mode = mode
        self.receiverMode = receiverMode
        self.quality = quality
        self.dilution = dilution
        self.satellites = satellites
    }
}
