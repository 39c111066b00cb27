import Glibc
import Testing
import WaymarkLocation
@testable import WaymarkMonitoring

@Suite("Monitor: conditions, limits and evaluation")
struct MonitorTests {
    @Test("a circle needs a centre on the globe and a radius of 1 m ... 100 km")
    func regionValidation() {
        #expect(CircularRegion(latitude: 45, longitude: 7, radius: 1) != nil)
        #expect(CircularRegion(latitude: -90, longitude: 180, radius: 100_000) != nil)
        for (latitude, longitude, radius) in [
            (Double.nan, 0.0, 100.0), (0, .nan, 100), (0, 0, .nan), (91, 0, 100), (0, -180.5, 100), (0, 0, 0.99),
            (0, 0, 100_000.1), (0, 0, .infinity), (.infinity, 0, 100), (0, 0, -5),
        ] {
            #expect(CircularRegion(latitude: latitude, longitude: longitude, radius: radius) == nil)
        }
    }

    @Test("identifiers: 1 ... 128 UTF-8 bytes without a control character (100 of \\u0001 × 128 made a monitorIdentifiers reply of 77 kB, past the 64 KiB line, and ESC reached the terminal of `waymark monitor list`)")
    func identifiers() throws {
        var monitor = try #require(Monitor(name: "home"))
        #expect(Monitor(name: "") == nil)
        #expect(Monitor(name: "a\u{1b}[31m") == nil)
        #expect(throws: Monitor.Refusal.invalidIdentifier) {
            try monitor.add(Geometry.region(radius: 50), identifier: "evil\u{1b}]0;owned\u{7}", at: Geometry.date(0))
        }
        #expect(throws: Monitor.Refusal.invalidIdentifier) {
            try monitor.add(Geometry.region(radius: 50), identifier: "line\nbreak", at: Geometry.date(0))
        }
        #expect(Monitor(name: String(repeating: "é", count: 65)) == nil)
        #expect(throws: Monitor.Refusal.invalidIdentifier) {
            try monitor.add(Geometry.region(radius: 50), identifier: "", at: Geometry.date(0))
        }
        #expect(throws: Monitor.Refusal.invalidIdentifier) {
            try monitor.add(Geometry.region(radius: 50), identifier: String(repeating: "x", count: 129), at: Geometry.date(0))
        }
        let longest = String(repeating: "x", count: 128)
        #expect(try monitor.add(Geometry.region(radius: 50), identifier: longest, at: Geometry.date(0)) == nil)
        #expect(monitor.identifiers == [longest])
    }

    @Test("the 21st condition is unmonitored with conditionLimitExceeded; 10,000 adds keep 100 records")
    func limits() throws {
        var monitor = try #require(Monitor(name: "m"))
        var refused = 0
        for number in 1...10_000 {
            do {
                let event = try monitor.add(Geometry.region(radius: 100), identifier: "c\(number)", at: Geometry.date(0))
                if number <= 20 {
                    #expect(event == nil)
                } else {
                    #expect(event?.state == .unmonitored)
                    #expect(event?.diagnostics == [.conditionLimitExceeded])
                }
            } catch {
                #expect(error == .recordLimitReached)
                refused += 1
            }
        }
        #expect(monitor.records.count == Monitor.recordLimit)
        #expect(refused == 10_000 - Monitor.recordLimit)
        #expect(monitor.records.count(where: { $0.lastEvent.state == .unknown }) == 20)
        // Only the 20 watched conditions are evaluated.
        let events = monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 1), accuracyLimited: false)
        #expect(events.map(\.identifier) == (1...20).map { "c\($0)" })
        #expect(events.allSatisfy { $0.state == .satisfied })
        // Removing a watched condition frees a place for the next one added.
        let removed = monitor.remove(identifier: "c1")
        let removedAgain = monitor.remove(identifier: "c1")
        #expect(removed && !removedAgain)
        #expect(try monitor.add(Geometry.region(radius: 10), identifier: "new", at: Geometry.date(2)) == nil)
    }

    @Test("a beacon is unmonitored with conditionUnsupported and takes no place among the 20")
    func unsupported() throws {
        var monitor = try #require(Monitor(name: "m"))
        let event = try monitor.add(.beaconIdentity, identifier: "beacon", at: Geometry.date(3))
        #expect(event == MonitorEvent(identifier: "beacon", state: .unmonitored, date: Geometry.date(3), diagnostics: [.conditionUnsupported]))
        for number in 1...20 {
            #expect(try monitor.add(Geometry.region(radius: 100), identifier: "c\(number)", at: Geometry.date(3)) == nil)
        }
        #expect(monitor.record(for: "beacon")?.lastEvent == event)
    }

    @Test("a straight crossing gives exactly one event per crossing, in order")
    func straightCrossing() throws {
        var monitor = try Monitor.watching("park", radius: 100)
        var events: [MonitorEvent] = []
        var jitter = Jitter(seed: 7)
        // West to east through the park at 1.4 m/s, one fix a second, 5 m accuracy and ±4 m noise.
        for second in 0...715 {
            let east = -500 + 1.4 * Double(second) + 4 * jitter.next()
            events += monitor.evaluate(Geometry.fix(east: east, north: 4 * jitter.next(), accuracy: 5, at: Double(second)), accuracyLimited: false)
        }
        #expect(events.map(\.state) == [.unsatisfied, .satisfied, .unsatisfied])
        #expect(events.map(\.date) == events.map(\.date).sorted())
        // Entered once the whole 5 m circle is inside: about (500 − 100 + 5) / 1.4 s.
        let entered = try #require(events.dropFirst().first).date.secondsSinceEpoch - Geometry.date(0).secondsSinceEpoch
        #expect(abs(entered - 405 / 1.4) < 5)
        #expect(monitor.record(for: "park")?.lastEvent == events.last)
    }

    @Test("walking along the border with jittering fixes does not flap")
    func borderWalk() throws {
        var monitor = try Monitor.watching("edge", radius: 200)
        #expect(monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 0), accuracyLimited: false).map(\.state) == [.satisfied])
        var jitter = Jitter(seed: 42)
        var events: [MonitorEvent] = []
        var naiveChanges = 0
        var naiveInside = true
        for second in 1...1_000 {
            let angle = Double(second) / 1_000 * 2 * .pi
            let accuracy = 10.0
            let distance = 200 + 9 * jitter.next()  // within the accuracy of the border
            let fix = Geometry.fix(east: distance * cos(angle), north: distance * sin(angle), accuracy: accuracy, at: Double(second))
            events += monitor.evaluate(fix, accuracyLimited: false)
            if (distance <= 200) != naiveInside {
                naiveInside.toggle()
                naiveChanges += 1
            }
        }
        #expect(naiveChanges > 100)  // a centre-only test would flap
        #expect(events.isEmpty)
        #expect(monitor.record(for: "edge")?.lastEvent.state == .satisfied)
    }

    @Test("an assumed state suppresses the first event when it matches")
    func assumedState() throws {
        var monitor = try #require(Monitor(name: "m"))
        _ = try monitor.add(Geometry.region(radius: 100), identifier: "home", assuming: .satisfied, at: Geometry.date(0))
        _ = try monitor.add(Geometry.region(radius: 100), identifier: "away", assuming: .unsatisfied, at: Geometry.date(0))
        #expect(monitor.record(for: "home")?.lastEvent.state == .satisfied)
        let events = monitor.evaluate(Geometry.fix(east: 20, accuracy: 5, at: 1), accuracyLimited: false)
        #expect(events == [MonitorEvent(identifier: "away", state: .satisfied, date: Geometry.date(1))])
    }

    @Test("unknown, invalid or huge accuracy decides nothing")
    func undecisiveAccuracy() throws {
        var monitor = try Monitor.watching("c", radius: 100)
        for accuracy in [-1, 0, .nan, .infinity, 1_000.5, 5_000] {
            #expect(monitor.evaluate(Geometry.fix(east: 0, accuracy: accuracy, at: 1), accuracyLimited: false).isEmpty)
            #expect(monitor.evaluate(Geometry.fix(east: 50_000, accuracy: accuracy, at: 1), accuracyLimited: false).isEmpty)
        }
        #expect(monitor.evaluate(Geometry.fix(east: 50_000, accuracy: 1_000, at: 2), accuracyLimited: false).map(\.state) == [.unsatisfied])
    }

    @Test("reduced accuracy: one accuracyLimited event, no decision, one more when it ends")
    func accuracyLimited() throws {
        var monitor = try Monitor.watching("c", radius: 100)
        #expect(monitor.evaluate(Geometry.fix(east: 500, accuracy: 5, at: 1), accuracyLimited: false).map(\.state) == [.unsatisfied])
        let limited = monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 2), accuracyLimited: true)
        #expect(limited == [MonitorEvent(identifier: "c", state: .unsatisfied, date: Geometry.date(2), diagnostics: [.accuracyLimited])])
        #expect(monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 3), accuracyLimited: true).isEmpty)
        let restored = monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 4), accuracyLimited: false)
        #expect(restored == [MonitorEvent(identifier: "c", state: .satisfied, date: Geometry.date(4))])
    }

    @Test("a fix older than the last event is ignored")
    func outOfOrder() throws {
        var monitor = try Monitor.watching("c", radius: 100, since: 10)
        #expect(monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 9), accuracyLimited: false).isEmpty)
        #expect(monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 11), accuracyLimited: false).count == 1)
        #expect(monitor.evaluate(Geometry.fix(east: 900, accuracy: 5, at: 10.5), accuracyLimited: false).isEmpty)
    }

    @Test("adding an identifier again replaces its condition in place and starts its state over")
    func replace() throws {
        var monitor = try #require(Monitor(name: "m"))
        _ = try monitor.add(Geometry.region(radius: 100), identifier: "a", at: Geometry.date(0))
        _ = try monitor.add(Geometry.region(radius: 100), identifier: "b", at: Geometry.date(0))
        _ = monitor.evaluate(Geometry.fix(east: 0, accuracy: 5, at: 1), accuracyLimited: false)
        _ = try monitor.add(Geometry.region(radius: 10), identifier: "a", at: Geometry.date(2))
        #expect(monitor.identifiers == ["a", "b"])
        #expect(monitor.record(for: "a")?.lastEvent.state == .unknown)
        #expect(monitor.evaluate(Geometry.fix(east: 50, accuracy: 5, at: 3), accuracyLimited: false).map(\.identifier) == ["a"])
    }

    @Test("a monitor restored from its records carries on; hostile records are bounded and re-checked")
    func restore() throws {
        var monitor = try #require(Monitor(name: "m"))
        _ = try monitor.add(Geometry.region(radius: 100), identifier: "a", assuming: .satisfied, at: Geometry.date(0))
        _ = try monitor.add(.beaconIdentity, identifier: "b", at: Geometry.date(0))
        _ = monitor.evaluate(Geometry.fix(east: 500, accuracy: 5, at: 1), accuracyLimited: false)
        var restored = try #require(Monitor(name: "m", restoring: monitor.records))
        #expect(restored.records == monitor.records)
        #expect(restored.evaluate(Geometry.fix(east: 505, accuracy: 5, at: 2), accuracyLimited: false).isEmpty)

        let watched = ConditionRecord(
            identifier: "x", condition: Geometry.region(radius: 100), assumedState: .unmonitored,
            lastEvent: MonitorEvent(identifier: "other", state: .satisfied, date: Geometry.date(0)))
        let hostile = (0..<500).map { number in
            var record = watched
            record.identifier = number == 7 ? "" : "c\(number % 300)"
            return record
        }
        let bounded = try #require(Monitor(name: "m", restoring: hostile))
        #expect(bounded.records.count == Monitor.recordLimit)
        #expect(bounded.records.count(where: { $0.lastEvent.state != .unmonitored }) == Monitor.conditionLimit)
        #expect(bounded.records.allSatisfy { $0.assumedState == nil && $0.lastEvent.identifier == $0.identifier })
        #expect(bounded.records.filter { $0.lastEvent.state == .unmonitored }.allSatisfy { $0.lastEvent.diagnostics == [.conditionLimitExceeded] })
    }
}
