import Testing
import WaymarkClock
import WaymarkDrivers
import WaymarkFix
import WaymarkTime
@testable import WaymarkInput

/// An epoch's time goes with the read of its first sentence, however the reads split the
/// epochs and whenever the decoder completes the fix.
@Suite struct EpochArrivalsTests {
    /// 2024-06-01 12:00:00 UTC.
    static let noon: Int64 = 1_717_243_200 * 1_000_000_000

    /// The RMC and GGA of second `second` after noon.
    static func sentences(_ second: Int) -> (rmc: [UInt8], gga: [UInt8]) {
        let time = "1200" + (second < 10 ? "0" : "") + "\(second).00"
        return (
            ReceiverCommands.nmeaSentence("GPRMC,\(time),A,4807.038,N,01131.000,E,0.0,0.0,010624,,,A"),
            ReceiverCommands.nmeaSentence("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
        )
    }

    /// The clocks at `milliseconds` on the monotonic timeline (the wall clock 1 h ahead).
    static func reading(_ milliseconds: Int64) -> ClockReading {
        ClockReading(monotonic: Instant(nanoseconds: milliseconds * 1_000_000), realtimeNanoseconds: (milliseconds + 3_600_000) * 1_000_000)
    }

    /// The epoch times the chunks (bytes read at a millisecond) give.
    static func epochs(_ chunks: [(bytes: [UInt8], at: Int64)]) -> [EpochTime] {
        var decoder = NMEADecoder()
        var arrivals = EpochArrivals()
        var times: [EpochTime] = []
        for chunk in chunks {
            let read = reading(chunk.at)
            chunk.bytes.withUnsafeBufferPointer { bytes in
                decoder.decode(bytes) { fix in
                    if let time = arrivals.epochTime(of: fix, chunkRead: read) { times.append(time) }
                }
            }
            arrivals.decoded(chunkRead: read, inProgress: decoder.assembler.epochInProgress)
        }
        return times
    }

    @Test func wholeEpochsPerReadArriveWithTheirRead() {
        // Until the decoder learns the cycle, epoch n is complete only when epoch n + 1 comes.
        let chunks = (0..<6).map { second in
            let epoch = Self.sentences(second)
            return (epoch.rmc + epoch.gga, Int64(second) * 1_000 + 200)
        }
        let times = Self.epochs(chunks)
        #expect(times.count >= 5)
        for time in times {
            let second = (time.utcNanoseconds - Self.noon) / 1_000_000_000
            #expect(time.firstSentenceAt == Instant(nanoseconds: (second * 1_000 + 200) * 1_000_000), "second \(second)")
            #expect(time.clocks == Self.reading(second * 1_000 + 200))
            #expect(time.hasFix)
        }
    }

    @Test func epochsSplitAcrossReadsArriveWithTheirFirstSentence() {
        var chunks: [(bytes: [UInt8], at: Int64)] = []
        for second in 0..<6 {
            let epoch = Self.sentences(second)
            chunks.append((epoch.rmc, Int64(second) * 1_000 + 100))
            chunks.append((epoch.gga, Int64(second) * 1_000 + 400))
        }
        let times = Self.epochs(chunks)
        #expect(times.count >= 5)
        for time in times {
            let second = (time.utcNanoseconds - Self.noon) / 1_000_000_000
            #expect(time.firstSentenceAt == Instant(nanoseconds: (second * 1_000 + 100) * 1_000_000), "second \(second)")
        }
    }

    @Test func anEpochWithoutADateHasNoTime() {
        let times = Self.epochs((0..<3).map { (Self.sentences($0).gga, Int64($0) * 1_000) })
        #expect(times.isEmpty)
    }
}
