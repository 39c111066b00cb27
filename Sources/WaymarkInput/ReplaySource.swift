package import WaymarkClock
package import WaymarkEngine
package import WaymarkEventLoop
import WaymarkFix
package import WaymarkLocation
package import WaymarkReceiver
import WaymarkSystem

/// A recorded NMEA capture replayed at the pace it was recorded (or compressed by the
/// daemon's timeline): each epoch is handed over at its receiver time relative to the first.
/// The capture goes through the real decoder once at start; its locations are marked
/// simulated. A replay cannot power anything down: only delivery pauses.
package final class ReplaySource: LocationSource {
    private let path: String
    private let repeats: Bool
    private var fixes: [Fix] = []
    private var next = 0
    private var origin = Instant.zero
    private var loop: EventLoop?
    private var timeline: Timeline?
    private var events: ((EngineEvent) -> Void)?
    private var timer: TimerID?

    /// A replay of the capture at `path`; with `repeats`, it starts over at the end.
    package init(path: String, repeats: Bool = false) {
        self.path = path
        self.repeats = repeats
    }

    package var summary: StatusReport.Source {
        StatusReport.Source(kind: "replay", description: "replay of \(path)", isSimulated: true)
    }

    package var poweredDownState: ReceiverPowerState? { nil }
    package var hasAccelerometer: Bool { false }

    package func start(on loop: EventLoop, timeline: Timeline, events: @escaping (EngineEvent) -> Void) throws {
        fixes = try Self.decode(path)
        guard !fixes.isEmpty else { throw ReplayError.noEpochs(path) }
        self.loop = loop
        self.timeline = timeline
        self.events = events
        origin = timeline.now
        schedule()
    }

    /// The capture's UTC as it is replayed: its first epoch's time at the replay's origin
    /// (none before the capture is read).
    package func fixClock(at instant: Instant) -> Timestamp? {
        guard let first = fixes.first?.time else { return nil }
        let (date, overflow) = first.nanosecondsSinceEpoch.addingReportingOverflow((instant - origin).nanoseconds)
        return overflow ? nil : Timestamp(nanosecondsSinceEpoch: date)
    }

    package func setReceiverPower(on: Bool, reason: String) {}
    package func setAccelerometer(_ command: AccelerometerCommand) {}

    package func stop() {
        if let timer { loop?.cancel(timer) }
        timer = nil
        events = nil
    }

    private func schedule() {
        guard let loop, let timeline, let first = fixes.first?.time else { return }
        if next == fixes.count {
            guard repeats else {
                events?(.receiverLost(reason: "the replay of \(path) has ended"))
                return
            }
            next = 0
            origin = timeline.now + .seconds(1)
        }
        guard let time = fixes[next].time else { return }
        let due = origin + .nanoseconds(time.nanosecondsSinceEpoch - first.nanosecondsSinceEpoch)
        timer = loop.schedule(at: timeline.monotonic(at: due)) { [unowned self] _ in
            self.timer = nil
            self.events?(.fix(self.fixes[self.next]))
            self.next += 1
            self.schedule()
        }
    }

    /// Decodes a whole capture into its time-stamped epochs, in the receiver's order (epochs
    /// whose time runs backwards are dropped).
    static func decode(_ path: String) throws -> [Fix] {
        let bytes = try FileDescriptor.readFile(path)
        var decoder = NMEADecoder()
        var comments = CaptureCommentFilter()
        var fixes: [Fix] = []
        let keep: (Fix) -> Void = { fix in
            guard let time = fix.time, fixes.last?.time.map({ $0 < time }) ?? true else { return }
            fixes.append(fix)
        }
        bytes.withUnsafeBufferPointer { buffer in
            comments.filter(buffer, data: { decoder.decode($0, emit: keep) }, date: { decoder.seedDate($0) })
        }
        decoder.finish(emit: keep)
        return fixes
    }
}

/// Why a capture cannot be replayed.
package enum ReplayError: Error, CustomStringConvertible {
    /// The file holds no time-stamped NMEA epoch.
    case noEpochs(String)

    package var description: String {
        switch self {
        case .noEpochs(let path): "\(path) holds no time-stamped NMEA epoch to replay"
        }
    }
}
