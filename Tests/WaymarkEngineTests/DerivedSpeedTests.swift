import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkFix
import WaymarkLocation
import WaymarkReceiver

@Suite("Engine: speeds derived from positions")
struct DerivedSpeedTests {
    /// A GGA-only receiver standing still: its position jitters by a metre from fix to fix,
    /// which a derived speed reads as 1 m/s or more (against an error of several m/s).
    static func jitteringFix(at second: Int) -> Fix {
        var fix = Fix()
        fix.time = Timestamp(date: CivilDate(year: 2026, month: 11, day: 22), hour: 10, minute: 0, second: second, nanoseconds: 0)
        fix.mode = .threeDimensional
        fix.quality = .autonomous
        fix.latitude = 47.3769 + (second.isMultiple(of: 2) ? 0 : 0.00001)
        fix.longitude = 8.5417
        fix.altitudeMSL = 408
        fix.hdop = 1
        fix.speed = 1.1
        fix.derivedVelocity = DerivedVelocity(speedError: 5.7, courseError: nil)
        return fix
    }

    @Test("position jitter read as a derived speed does not keep a still receiver awake", arguments: [true, false])
    func jitterPauses(hasAccelerometer: Bool) {
        var harness = EngineHarness(
            settings: EngineSettings(receiver: .ubloxM8, isSimulated: true, hasAccelerometer: hasAccelerometer))
        harness.handle(.startLiveUpdates(1, .default))
        for second in 1...20 {
            if hasAccelerometer { harness.samples(at: Double(second) - 0.5, moving: false) }
            harness.advance(to: Double(second))
            harness.handle(.fix(Self.jitteringFix(at: second)))
        }
        #expect(harness.updates.filter(\.isStationary).count == 1)
        #expect(harness.power == [true, false])
    }
}
