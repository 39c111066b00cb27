import CWaymarkChrony
import Testing
import WaymarkTime
@testable import WaymarkChrony

/// The records' layouts against chrony's refclock_sock.c / refclock_shm.c and gpsd's ntpshm.h
/// on an LP64 platform (x86-64, arm64): 64-bit time_t and suseconds_t.
@Suite struct RecordLayoutTests {
    #if _pointerBitWidth(_64)
    @Test func sockSampleLayoutIsChronys() {
        #expect(MemoryLayout<waymark_sock_sample>.size == 40)
        #expect(MemoryLayout<waymark_sock_sample>.offset(of: \.tv) == 0)
        #expect(MemoryLayout<waymark_sock_sample>.offset(of: \.offset) == 16)
        #expect(MemoryLayout<waymark_sock_sample>.offset(of: \.pulse) == 24)
        #expect(MemoryLayout<waymark_sock_sample>.offset(of: \.leap) == 28)
        #expect(MemoryLayout<waymark_sock_sample>.offset(of: \._pad) == 32)
        #expect(MemoryLayout<waymark_sock_sample>.offset(of: \.magic) == 36)
    }

    @Test func shmTimeLayoutIsNTPs() {
        #expect(MemoryLayout<waymark_shm_time>.size == 96)
        let offsets: [(PartialKeyPath<waymark_shm_time>, Int)] = [
            (\.mode, 0), (\.count, 4), (\.clockTimeStampSec, 8), (\.clockTimeStampUSec, 16),
            (\.receiveTimeStampSec, 24), (\.receiveTimeStampUSec, 32), (\.leap, 36), (\.precision, 40),
            (\.nsamples, 44), (\.valid, 48), (\.clockTimeStampNSec, 52), (\.receiveTimeStampNSec, 56), (\.dummy, 60),
        ]
        for (field, offset) in offsets {
            #expect(MemoryLayout<waymark_shm_time>.offset(of: field) == offset, "\(field)")
        }
    }

    @Test func sockSampleBytes() throws {
        // 2026-09-21 17:33:20.123456789 local, true time 3 ms earlier, leap second announced.
        let system: Int64 = 1_790_012_000_123_456_789
        let sample = try #require(
            TimeSample(systemNanoseconds: system, referenceNanoseconds: system - 3_000_000, source: .pulse, leap: .insert))
        var record = try #require(waymark_sock_sample(sample))
        let bytes = withUnsafeBytes(of: &record) { Array($0) }
        #expect(bytes.count == 40)
        #expect(bytes[0..<8] == littleEndian(Int64(1_790_012_000)))
        #expect(bytes[8..<16] == littleEndian(Int64(123_456)))
        // tv states .123456 (the clock's reading, to the microsecond); the offset is the clock's
        // error then, -3 ms, not shifted by the 789 ns tv leaves out.
        #expect(bytes[16..<24] == littleEndian(Int64(bitPattern: (-0.003).bitPattern)))
        #expect(bytes[24..<28] == littleEndian(Int32(0)))  // pulse: the second is known
        #expect(bytes[28..<32] == littleEndian(Int32(1)))
        #expect(bytes[36..<40] == [0x4b, 0x43, 0x4f, 0x53])  // "SOCK" as a little-endian int
    }
    #endif

    @Test func timesBefore1970SplitIntoSecondsAndAPositiveFraction() throws {
        #expect(splitSeconds(-1) == (-1, 999_999_999))
        #expect(splitSeconds(-1_000_000_000) == (-1, 0))
        #expect(splitSeconds(1_500_000_000) == (1, 500_000_000))
        #expect(splitSeconds(.min) == (-9_223_372_037, 145_224_192))
        let sample = try #require(TimeSample(systemNanoseconds: -1, referenceNanoseconds: 0, source: .nmea, leap: .none))
        let record = try #require(waymark_sock_sample(sample))
        #expect(record.tv.tv_sec == -1 && record.tv.tv_usec == 999_999)
        #expect(record.offset == 1e-9)
        for (system, reference) in [(Int64.min, Int64.min), (.min, -1), (.max, .max), (.max, 0), (0, .max)] {
            let extreme = try #require(
                TimeSample(systemNanoseconds: system, referenceNanoseconds: reference, source: .nmea, leap: .none))
            let record = try #require(waymark_sock_sample(extreme))
            // tv is the system time to the microsecond below it; the offset true minus system time.
            let stated = Double(record.tv.tv_sec) * 1e9 + Double(record.tv.tv_usec) * 1e3
            #expect(abs(stated - Double(system)) <= Double(system.magnitude) * 1e-15 + 1000)
            let offset = Double(reference) - Double(system)
            #expect(abs(record.offset * 1e9 - offset) <= offset.magnitude * 1e-15 + 1)
        }
    }

    private func littleEndian<Value: FixedWidthInteger>(_ value: Value) -> ArraySlice<UInt8> {
        withUnsafeBytes(of: value.littleEndian) { ArraySlice($0) }
    }
}
