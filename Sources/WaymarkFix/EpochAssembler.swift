package import WaymarkNMEA
package import WaymarkLocation

/// Merges the sentences of one measurement epoch into one ``Fix`` and emits it as soon as
/// the epoch is complete.
///
/// An epoch is the run of sentences that share one time of day (sentences without a time —
/// GSA, GSV, VTG — belong to the epoch they follow; TXT messages to none). The assembler
/// learns which sentence closes the receiver's cycle (``CycleLearner``) and emits the fix on
/// that sentence; until it has learned, and whenever the receiver's cycle changes, the fix is
/// emitted when the next epoch's first time-stamped sentence arrives. The merge rules are in
/// `docs/epochs.md`.
package struct EpochAssembler: Sendable {
    /// Counts that describe the assembler's work.
    package struct Statistics: Hashable, Sendable {
        /// Fixes emitted.
        package var epochs = 0
        /// Epochs emitted on the learned end-of-cycle sentence (without waiting a cycle).
        package var emittedOnCycleEnd = 0
        /// Time-stamped sentences that arrived after their epoch had been emitted.
        package var lateSentences = 0
    }

    /// Counts that describe the assembler's work.
    package private(set) var statistics = Statistics()
    /// The learned receiver cycle.
    package private(set) var cycle = CycleLearner()
    /// The date logic (century, rollover, carry across midnight).
    package private(set) var dates: DateResolver

    private var fix = Fix()
    private var epochTime: TimeOfDay?
    private var hasContent = false
    private var lastKey: CycleKey?
    /// How often each talker/type pair occurred in this epoch (a fixed table, so copying
    /// the assembler never allocates).
    private var occurrences = InlineArray<24, (talker: Talker, type: UInt32, count: Int)>(repeating: (.combined, 0, 0))
    private var occurrenceCount = 0
    private var emittedTime: TimeOfDay?
    /// Whether the current epoch was emitted on the learned end of cycle.
    private var emittedEarly = false
    private var sky = SatelliteCounts()
    /// The satellites the receiver last described (GSV), and those the epoch's GSA used.
    private var skyView = SkyAssembler()
    private var used = SatelliteSet()
    private var gsaSeenThisEpoch = false
    private var evidence = ModeEvidence()
    private var previousMode = FixMode.noFix

    /// The time of day of the epoch whose sentences arrive now (or arrived last, until the
    /// next one starts), if any.
    package var epochInProgress: TimeOfDay? { epochTime }

    /// Creates an assembler; `referenceDate` seeds dates for receivers that send none and
    /// guards against week-rollover dates.
    package init(referenceDate: CivilDate? = nil) {
        dates = DateResolver(reference: referenceDate)
    }

    /// Seeds the date (a capture's `# Date:` comment).
    package mutating func seedDate(_ date: CivilDate) {
        dates.seed(date)
    }

    /// Adds one sentence; calls `emit` for each epoch it completes (at most two: the
    /// previous epoch when this sentence starts a new one, and this one if it ends the cycle).
    package mutating func add(_ sentence: ParsedSentence, emit: (Fix) -> Void) {
        // Text messages come at start-up and whenever something happens (antenna status): they
        // carry nothing of a fix and must not be learned as a cycle's end.
        if case .txt = sentence.message { return }
        let time = Self.timeOfDay(of: sentence.message)
        if emittedEarly {
            // The epoch went out on the learned end of cycle. Until a new time arrives, what
            // follows still belongs to it (as in gpsd, sentences without a time belong to the
            // epoch before them) but is too late to be used.
            guard let time, time != emittedTime else {
                statistics.lateSentences += 1
                // Too late for the epoch, but still the receiver's sky, for the next one.
                switch sentence.message {
                case .gsv(let gsv): skyView.add(gsv, talker: sentence.talker)
                case .gsa(let gsa): _ = noteUsed(gsa, talker: sentence.talker)
                default: break
                }
                lastKey = cycleKey(for: sentence)
                if time != nil { cycle.withdraw() }
                return
            }
            emittedEarly = false
            if let lastKey { cycle.observeEnd(lastKey) }
            startEpoch()
        } else if let time, let epochTime, epochTime != time {
            if let lastKey { cycle.observeEnd(lastKey) }
            flush(emit)
            startEpoch()
        }
        if let time {
            if epochTime == nil { skyView.startEpoch() }
            epochTime = time
            fix.timeOfDay = time
        }
        let key = cycleKey(for: sentence)
        merge(sentence)
        hasContent = true
        lastKey = key
        if key == cycle.endOfCycle, epochTime != nil {
            statistics.emittedOnCycleEnd += 1
            flush(emit)
            emittedEarly = true
        }
    }

    /// Emits the epoch in progress, if any (at the end of a stream).
    package mutating func finish(emit: (Fix) -> Void) {
        if !emittedEarly { flush(emit) }
        emittedEarly = false
        startEpoch()
    }

    // MARK: - Epoch boundaries

    private mutating func flush(_ emit: (Fix) -> Void) {
        guard hasContent, let epochTime else { return }
        fix.satellites = sky
        fix.sky = skyView.view(used: used)
        fix.receiverMode = evidence.receiverMode
        fix.mode = evidence.mode(
            previous: previousMode, satellitesUsed: max(fix.satellitesUsed ?? 0, sky.totalUsed),
            hasAltitude: fix.altitudeMSL != nil, hasVerticalDilution: fix.vdop != nil)
        previousMode = fix.mode
        // A time from the epoch's RMC or ZDA stands as it is: during a leap second (23:59:60)
        // its instant already lies in the next day, and its date read back would add a day.
        if fix.time == nil, let date = dates.date(for: epochTime) {
            fix.time = Timestamp(date: date, time: epochTime)
        }
        statistics.epochs += 1
        emit(fix)
        emittedTime = epochTime
    }

    private mutating func startEpoch() {
        fix = Fix()
        epochTime = nil
        hasContent = false
        lastKey = nil
        occurrenceCount = 0
        gsaSeenThisEpoch = false
        evidence = ModeEvidence()
    }

    private mutating func cycleKey(for sentence: ParsedSentence) -> CycleKey {
        let type = Self.typeCode(sentence.message)
        if case .gsv(let gsv) = sentence.message, gsv.isLast {
            return CycleKey(talker: sentence.talker, type: type, ordinal: 0)
        }
        for index in 0..<occurrenceCount
        where occurrences[index].talker == sentence.talker && occurrences[index].type == type {
            occurrences[index].count += 1
            return CycleKey(talker: sentence.talker, type: type, ordinal: occurrences[index].count)
        }
        if occurrenceCount < occurrences.count {
            occurrences[occurrenceCount] = (sentence.talker, type, 1)
            occurrenceCount += 1
        }
        return CycleKey(talker: sentence.talker, type: type, ordinal: 1)
    }

    // MARK: - Merging

    private mutating func merge(_ sentence: ParsedSentence) {
        switch sentence.message {
        case .rmc(let rmc): merge(rmc)
        case .gga(let gga): merge(gga)
        case .gns(let gns): merge(gns)
        case .gll(let gll): merge(gll)
        case .vtg(let vtg): merge(vtg)
        case .gsa(let gsa): merge(gsa, talker: sentence.talker)
        case .gsv(let gsv): merge(gsv, talker: sentence.talker)
        case .gst(let gst): merge(gst)
        case .zda(let zda): merge(zda)
        case .txt: break
        }
    }

    private mutating func merge(_ rmc: RMC) {
        if let date = rmc.date, let resolved = dates.resolve(date, at: rmc.time), let time = rmc.time {
            fix.time = Timestamp(date: resolved, time: time)
        }
        evidence.record(statusValid: rmc.isValid)
        guard rmc.isValid else { return }
        setPosition(rmc.latitude, rmc.longitude)
        if let knots = rmc.speedKnots { fix.speed = Self.speed(knots.doubleValue * Self.metresPerSecondPerKnot) }
        if let course = rmc.course { fix.course = Self.course(course.doubleValue) }
        if let variation = rmc.magneticVariation { fix.magneticVariation = variation.doubleValue }
        if let mode = rmc.mode { fix.quality = FixQuality(mode: mode) }
    }

    private mutating func merge(_ gga: GGA) {
        guard let quality = gga.quality else { return }
        mergeSolution(
            valid: quality > 0, quality: FixQuality(ggaQuality: quality), latitude: gga.latitude,
            longitude: gga.longitude, altitude: gga.altitude, geoidSeparation: gga.geoidSeparation,
            satellitesUsed: gga.satellitesUsed, hdop: gga.hdop, differentialAge: gga.differentialAge)
    }

    private mutating func merge(_ gns: GNS) {
        guard let mode = gns.bestMode else { return }
        mergeSolution(
            valid: mode.isValid, quality: FixQuality(mode: mode), latitude: gns.latitude,
            longitude: gns.longitude, altitude: gns.altitude, geoidSeparation: gns.geoidSeparation,
            satellitesUsed: gns.satellitesUsed, hdop: gns.hdop, differentialAge: gns.differentialAge)
    }

    /// The part GGA and GNS share: a solution with its quality, position, altitude, geoid
    /// separation, satellites used, HDOP and differential age.
    private mutating func mergeSolution(
        valid: Bool, quality: FixQuality, latitude: NMEACoordinate?, longitude: NMEACoordinate?,
        altitude: NMEADecimal?, geoidSeparation: NMEADecimal?, satellitesUsed: Int?, hdop: NMEADecimal?,
        differentialAge: NMEADecimal?
    ) {
        let altitude = altitude.flatMap { Self.altitude($0.doubleValue) }
        evidence.record(
            quality: valid && latitude != nil ? 1 : 0, hasAltitude: altitude != nil, satellitesUsed: satellitesUsed)
        if let satellitesUsed { fix.satellitesUsed = satellitesUsed }
        guard valid else { return }
        fix.quality = quality
        setPosition(latitude, longitude)
        if let altitude { fix.altitudeMSL = altitude }
        if let separation = geoidSeparation.flatMap({ Self.geoidSeparation($0.doubleValue) }) { fix.geoidSeparation = separation }
        if let hdop = Self.dilution(hdop) { fix.hdop = hdop }
        if let differentialAge { fix.differentialAge = differentialAge.doubleValue }
    }

    private mutating func merge(_ gll: GLL) {
        evidence.record(statusValid: gll.isValid)
        guard gll.isValid else { return }
        setPosition(gll.latitude, gll.longitude)
        if let mode = gll.mode { fix.quality = FixQuality(mode: mode) }
    }

    private mutating func merge(_ vtg: VTG) {
        if vtg.mode == .notValid { return }
        if let knots = vtg.speedKnots {
            fix.speed = Self.speed(knots.doubleValue * Self.metresPerSecondPerKnot)
        } else if let kmh = vtg.speedKilometresPerHour {
            fix.speed = Self.speed(kmh.doubleValue / 3.6)
        }
        if let course = vtg.courseTrue { fix.course = Self.course(course.doubleValue) }
    }

    private mutating func merge(_ gsa: GSA, talker: Talker) {
        if let type = gsa.fixType, gsa.isComplete { evidence.record(fixType: type) }
        if let pdop = Self.dilution(gsa.pdop) { fix.pdop = pdop }
        if let hdop = Self.dilution(gsa.hdop) { fix.hdop = hdop }
        if let vdop = Self.dilution(gsa.vdop) { fix.vdop = vdop }
        if !gsaSeenThisEpoch { sky.used = InlineArray(repeating: 0) }
        let system = noteUsed(gsa, talker: talker)
        for index in 0..<gsa.satelliteCount {
            let number = Int(gsa.satellites[index])
            let constellation = Constellation(satelliteNumber: number).flatMap { $0 == .sbas ? $0 : nil }
                ?? system ?? Constellation(satelliteNumber: number)
            if let constellation { sky.used[constellation.rawValue] += 1 }
        }
    }

    /// Adds the satellites `gsa` lists to the epoch's used set (its first GSA starts the set)
    /// and returns the system its numbers are of (system id, else talker). A GSA that comes
    /// after its epoch was emitted still says what the sky view's next fix used.
    private mutating func noteUsed(_ gsa: GSA, talker: Talker) -> Constellation? {
        if !gsaSeenThisEpoch {
            used = SatelliteSet()
            gsaSeenThisEpoch = true
        }
        let system = gsa.systemID.flatMap(Constellation.init(systemID:)) ?? talker.constellation
        for index in 0..<gsa.satelliteCount {
            if let satellite = SatelliteIdentity(number: Int(gsa.satellites[index]), system: system) { used.insert(satellite) }
        }
        return system
    }

    private mutating func merge(_ gsv: GSV, talker: Talker) {
        skyView.add(gsv, talker: talker)
        guard let total = gsv.satellitesInView else { return }
        if let constellation = talker.constellation {
            // Several signal lists (NMEA 4.10 signal ids) repeat the same satellites: keep
            // the largest list rather than adding them up.
            if gsv.messageNumber == 1 || sky.inView[constellation.rawValue] < total {
                sky.inView[constellation.rawValue] = total
            }
        } else if gsv.messageNumber == 1 {
            sky.inView = InlineArray(repeating: 0)
        }
        if talker.constellation == nil {
            for index in 0..<gsv.satelliteCount {
                if let constellation = Constellation(satelliteNumber: gsv.satellites[index].number) {
                    sky.inView[constellation.rawValue] += 1
                }
            }
        }
    }

    private mutating func merge(_ gst: GST) {
        if let error = gst.latitudeError { fix.latitudeError = error.doubleValue }
        if let error = gst.longitudeError { fix.longitudeError = error.doubleValue }
        if let error = gst.altitudeError { fix.altitudeError = error.doubleValue }
    }

    private mutating func merge(_ zda: ZDA) {
        guard let date = zda.date, let resolved = dates.resolve(date, at: zda.time) else { return }
        if let time = zda.time, fix.time == nil {
            fix.time = Timestamp(date: resolved, time: time)
        }
    }

    private mutating func setPosition(_ latitude: NMEACoordinate?, _ longitude: NMEACoordinate?) {
        guard let latitude, let longitude else { return }
        fix.latitude = latitude.degrees
        fix.longitude = longitude.degrees
    }

    /// A dilution of precision, or `nil` for the 99.99 or 0.0 receivers print when they have
    /// none (a DOP is the root of a sum of positive variances: never 0).
    private static func dilution(_ value: NMEADecimal?) -> Double? {
        guard let value = value?.doubleValue, value > 0, value < 99 else { return nil }
        return value
    }

    // MARK: - Sentence facts

    /// Knots to metres per second: 1852 m per nautical mile, 3600 s per hour.
    static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// A speed over ground, m/s, or `nil` for one no receiver reports: it is a magnitude (NMEA
    /// 0183), never negative.
    static func speed(_ value: Double) -> Double? {
        value >= 0 ? value : nil
    }

    /// A course over ground, degrees from true north, or `nil` outside 0 … 360 (a receiver
    /// prints 0 to 359.9; 360 is north too).
    static func course(_ value: Double) -> Double? {
        (0...360).contains(value) ? value.truncatingRemainder(dividingBy: 360) : nil
    }

    /// An altitude above mean sea level, m, or `nil` for one no receiver gives: below
    /// −1,000 m (the lowest dry land lies 430 m below the sea, and no signal reaches deep
    /// underground) or above 100 km (u-blox receivers stop at 50 km, MediaTek's at 18 km).
    static func altitude(_ value: Double) -> Double? {
        (-1_000...100_000).contains(value) ? value : nil
    }

    /// A geoid separation, m, or `nil` beyond ±200 m: the geoid lies within about −107 … +86 m
    /// of the WGS 84 ellipsoid everywhere.
    static func geoidSeparation(_ value: Double) -> Double? {
        (-200...200).contains(value) ? value : nil
    }

    static func timeOfDay(of message: NMEAMessage) -> TimeOfDay? {
        switch message {
        case .rmc(let rmc): rmc.time
        case .gga(let gga): gga.time
        case .gns(let gns): gns.time
        case .gll(let gll): gll.time
        case .gst(let gst): gst.time
        case .zda(let zda): zda.time
        case .gsa, .gsv, .vtg, .txt: nil
        }
    }

    static func typeCode(_ message: NMEAMessage) -> UInt32 {
        switch message {
        case .rmc: 1
        case .gga: 2
        case .gsa: 3
        case .gsv: 4
        case .vtg: 5
        case .gll: 6
        case .gns: 7
        case .gst: 8
        case .zda: 9
        case .txt: 10
        }
    }
}
