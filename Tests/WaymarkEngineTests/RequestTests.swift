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

    @Test("with default arguments it answers once the accuracy stops improving, long before the timeout")
    func defaultArgumentsConverge() throws {
        var harness = EngineHarness()
        harness.handle(.requestLocation(1, desiredAccuracy: 0, timeout: .seconds(30)))
        for second in 1...3 { harness.fix(at: Double(second), latitude: 47.3769 + Double(second) * 0.00001, hdop: 1.1) }
        #expect(harness.answers.isEmpty)
        harness.fix(at: 4, latitude: 47.37694, hdop: 1.1)  // the third fix in a row without a gain
        let answer = try #require(harness.answers.first)
        #expect(try answer.1.get().latitude == 47.37694)
        #expect(harness.power == [true, false])
        #expect(harness.engine.nextDeadline == nil)
    }

    @Test("an improving accuracy is waited for, a regression does not end the wait, and the answer is the newest fix within 10 % of the best")
    func breakEven() throws {
        var harness = EngineHarness()
        harness.handle(.requestLocation(1, desiredAccuracy: 0, timeout: .seconds(30)))
        // 20, 16, 12, 10 m: each more than 10 % better than the last gain.
        for (second, hdop) in [5.0, 4, 3, 2.5].enumerated() { harness.fix(at: Double(second + 1), hdop: hdop) }
        #expect(harness.answers.isEmpty)
        harness.fix(at: 5, latitude: 47.3770, hdop: 2.4)  // 9.6 m: less than 10 % better
        harness.fix(at: 6, latitude: 47.3771, hdop: 3.5)  // 14 m: a regression
        #expect(harness.answers.isEmpty)
        harness.fix(at: 7, latitude: 47.3772, hdop: 3.5)  // no gain for three fixes: break-even
        let answer = try #require(try harness.answers.first?.1.get())
        // The best was 9.6 m; 14 m is more than 10 % worse, so the 9.6 m fix is the answer.
        #expect(answer.horizontalAccuracy == 9.6)
        #expect(answer.latitude == 47.3770)
        #expect(harness.power == [true, false])
    }

    @Test("a fresh fix answers at once once the accuracy has converged; before that the request converges from it")
    func freshFix() throws {
        var harness = EngineHarness()
        harness.handle(.startLiveUpdates(1, .default))
        harness.samples(at: 0.5, moving: true)
        harness.fix(at: 1, latitude: 47.3770, speed: 1.5)
        harness.handle(.requestLocation(1, desiredAccuracy: 0, timeout: .seconds(30)))
        #expect(harness.answers.isEmpty)  // one fix: no trend yet
        for second in 2...4 { harness.fix(at: Double(second), latitude: 47.3770 + Double(second) * 0.00001, speed: 1.5) }
        #expect(harness.answers.map(\.0) == [1])
        harness.fix(at: 5, latitude: 47.37706, speed: 1.5)
        harness.advance(to: 5.4)
        harness.handle(.requestLocation(2, desiredAccuracy: 0, timeout: .seconds(30)))
        let answer = try #require(harness.answers.last)
        #expect(answer.0 == 2)
        #expect(try answer.1.get().latitude == 47.37706)
        #expect(harness.power == [true])  // the live subscription still needs the receiver
    }

    @Test("cancelling a request releases the receiver at once")
    func cancel() {
        var harness = EngineHarness()
        harness.handle(.requestLocation(4, desiredAccuracy: 0, timeout: .seconds(30)))
        harness.fix(at: 1)
        harness.handle(.cancelRequest(4))
        #expect(harness.power == [true, false])
        #expect(harness.engine.pendingRequestCount == 0)
        #expect(harness.engine.nextDeadline == nil)
        harness.advance(to: 60)
        #expect(harness.answers.isEmpty)
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
