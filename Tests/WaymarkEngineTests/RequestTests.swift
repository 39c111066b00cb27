import Testing
import WaymarkClock
import WaymarkEngine
import WaymarkLocation

@Suite("Engine: requestLocation")
struct RequestTests {
    @Test("converges: waits for the desired accuracy, answers once, then releases the receiver")
    func converges() throws {
        var harness = EngineHarness()
        harness.handle(.requestLocation(3, desiredAccuracy: 10, timeout: .seconds(30)))
        #expect(harness.power == [true])
        harness.fix(at: 1, hdop: 5)  // 20 m: not yet
        #expect(harness.answers.isEmpty)
        harness.fix(at: 2, hdop: 2)  // 8 m
        let answer = try #require(harness.answers.first)
        #expect(answer.0 == 3)
        #expect(try answer.1.get().horizontalAccuracy == 8)
        #expect(harness.power == [true, false])
        #expect(harness.updates.isEmpty)
    }

    @Test("at the timeout: the best location seen, or locationUnknown")
    func timeout() throws {
        var harness = EngineHarness()
        harness.handle(.requestLocation(1, desiredAccuracy: 5, timeout: .seconds(10)))
        harness.fix(at: 1, hdop: 6)
        harness.fix(at: 2, hdop: 4)
        harness.fix(at: 3, hdop: 9)
        harness.advance(to: 11)
        #expect(try harness.answers.first?.1.get().horizontalAccuracy == 16)
        harness.handle(.requestLocation(2, desiredAccuracy: 5, timeout: .seconds(10)))
        harness.advance(to: 30)
        guard case .failure(let error)? = harness.answers.last?.1 else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == .locationUnknown)
        #expect(harness.power == [true, false, true, false])
    }

    @Test("a request beside paused live updates neither resumes them nor gets their pause")
    func besideLiveUpdates() {
        var harness = EngineTests().pausedHarness()
        let updates = harness.updates.count
        harness.handle(.requestLocation(9, desiredAccuracy: 100, timeout: .seconds(30)))
        #expect(harness.power.last == true)
        harness.fix(at: 20, speed: 0)
        #expect(harness.answers.count == 1)
        #expect(harness.updates.count == updates)
        #expect(harness.power.last == false)
    }
}
