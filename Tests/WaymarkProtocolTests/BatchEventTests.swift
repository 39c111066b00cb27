import Testing
import WaymarkLocation
import WaymarkProtocol

/// A deferred subscription's batch on the wire (`docs/protocol.md`, "Deferred delivery"):
/// split into lines the protocol's limit allows, nothing lost or reordered.
@Suite("Batch event")
struct BatchEventTests {
    /// A location with every field and every constellation, the longest an update gets.
    static func longest(_ index: Int) -> LocationUpdate {
        var location = Samples.location
        for constellation in Constellation.allCases {
            location.satellites.inView[constellation.rawValue] = 99
            location.satellites.used[constellation.rawValue] = 99
        }
        location.latitude = -33.856784412345678 + Double(index) * 1e-9
        var diagnostics = Diagnostics()
        for name in ["authorizationDenied", "locationUnavailable", "accuracyLimited", "daemonUnavailable"] { diagnostics.set(named: name) }
        return LocationUpdate(location: location, isStationary: true, diagnostics: diagnostics)
    }

    @Test("a full batch of the longest updates is split into lines within the limit; read back in order, overflow on the first only")
    func splitWithinTheLimit() throws {
        let updates = (0..<Batching.maximumCapacity).map(Self.longest)
        let lines = BatchEvent.lines(subscription: 7, encodedUpdates: updates.map(UpdateEvent.encode), overflow: .max)
        #expect(lines.count > 1)
        var read: [LocationUpdate] = []
        for (index, line) in lines.enumerated() {
            #expect(line.count <= ProtocolLimits.maximumLineLength)
            #expect(line.last == 0x0A)
            guard case .event(.batch(let batch)) = try ServerMessage(line: line.dropLast()) else {
                Issue.record("line \(index) is not a batch")
                continue
            }
            #expect(batch.subscription == 7)
            #expect(batch.more == (index < lines.count - 1))
            #expect(batch.overflow == (index == 0 ? .max : 0))
            read += batch.updates
        }
        #expect(read == updates)
    }

    @Test("a batch that fits is one line, the same bytes as the event written whole")
    func oneLine() throws {
        let updates = [Self.longest(0), LocationUpdate(location: nil)]
        let lines = BatchEvent.lines(subscription: 4, encodedUpdates: updates.map(UpdateEvent.encode), overflow: 2)
        #expect(lines == [ServerMessage.event(.batch(BatchEvent(subscription: 4, updates: updates, overflow: 2))).line])
    }

    @Test("a batch event with a negative overflow or an update that is no update is refused")
    func hostile() {
        #expect(throws: ProtocolError.self) {
            try ServerMessage(line: Array(#"{"event":"batch","subscription":1,"updates":[],"overflow":-1,"more":false}"#.utf8))
        }
        #expect(throws: ProtocolError.self) {
            try ServerMessage(line: Array(#"{"event":"batch","subscription":1,"updates":[3],"overflow":0,"more":false}"#.utf8))
        }
    }
}
