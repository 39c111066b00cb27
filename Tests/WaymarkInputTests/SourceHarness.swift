import WaymarkEngine
import Glibc
import WaymarkBoard
import WaymarkInput
import WaymarkDrivers
import WaymarkEventLoop
import WaymarkSystem

/// Runs a location source on a real event loop on the test's thread, collecting its events,
/// with an optional NMEA feed written into a pseudo-terminal while the loop runs.
final class SourceHarness {
    let loop: EventLoop
    private(set) var events: [EngineEvent] = []
    /// Where the feed writes; `nil` pauses it.
    var feed: FileDescriptor?
    /// What the wire does to each epoch's bytes on their way (another baud rate, noise).
    var line: ([UInt8]) -> [UInt8] = { $0 }
    private var feeder: NMEAFeed

    init(moving: Bool = false) throws {
        loop = try EventLoop()
        feeder = NMEAFeed(moving: moving)
    }

    func start(_ source: any LocationSource) throws {
        try source.start(on: loop, timeline: Timeline()) { [unowned self] event in self.events.append(event) }
    }

    /// Runs the loop (feeding an epoch every 20 ms) until `condition` holds or `timeout`
    /// passes; returns whether it held.
    @discardableResult
    func run(timeout: Duration = .seconds(5), until condition: @escaping () -> Bool) throws -> Bool {
        let deadline = MonotonicInstant.now + timeout
        let timer = loop.schedule(after: .milliseconds(20), repeating: .milliseconds(20)) { [unowned self] loop in
            if let feed = self.feed { self.feeder.write(to: feed, through: self.line) }
            if condition() || MonotonicInstant.now >= deadline { loop.stop() }
        }
        try loop.run()
        loop.cancel(timer)
        return condition()
    }

    /// Starts `source` fed from `feed` and runs until two fixes came.
    func startStreaming(_ source: any LocationSource, from feed: FileDescriptor) throws -> Bool {
        try start(source)
        self.feed = feed
        return try run { self.fixCount >= 2 }
    }

    /// Feeds from `feed` again and runs until two more fixes came.
    func resumeFeeding(from feed: FileDescriptor, timeout: Duration = .seconds(5)) throws -> Bool {
        let before = fixCount
        self.feed = feed
        return try run(timeout: timeout) { self.fixCount >= before + 2 }
    }

    /// Runs the loop for `duration`.
    func run(for duration: Duration) throws {
        try run(timeout: duration) { false }
    }

    var fixCount: Int {
        events.count { if case .fix = $0 { true } else { false } }
    }

    var lostReasons: [String] {
        events.compactMap { if case .receiverLost(let reason) = $0 { reason } else { nil } }
    }

    var accelerometerFailures: [String] {
        events.compactMap { if case .accelerometerFailed(let reason) = $0 { reason } else { nil } }
    }
}

/// A receiver's output: an RMC and a GGA per epoch, one second of receiver time apart.
struct NMEAFeed {
    var moving: Bool
    private var epoch = 0

    init(moving: Bool) {
        self.moving = moving
    }

    /// The next epoch's sentences.
    mutating func next() -> [UInt8] {
        epoch += 1
        let seconds = 12 * 3600 + epoch
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = two(seconds / 3600 % 24) + two(seconds / 60 % 60) + two(seconds % 60) + ".00"
        let minutes = moving ? 7.038 + Double(epoch) * 0.003 : 7.038
        let latitude = "48" + (minutes < 10 ? "0" : "") + String(minutes.formatted3)
        let speed = moving ? "10.0" : "0.0"
        return ReceiverCommands.nmeaSentence("GPRMC,\(time),A,\(latitude),N,01131.000,E,\(speed),0.0,010624,,,A")
            + ReceiverCommands.nmeaSentence("GPGGA,\(time),\(latitude),N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    }

    /// Writes the next epoch into `fd` as `line` delivers it, dropping it if the terminal's
    /// buffer is full.
    mutating func write(to fd: FileDescriptor, through line: ([UInt8]) -> [UInt8]) {
        let bytes = line(next())
        _ = try? bytes.withUnsafeBytes { try fd.write($0) }
    }
}

extension Double {
    /// Three decimals, without Foundation.
    var formatted3: String {
        let thousandths = Int((self * 1000).rounded())
        let fraction = thousandths % 1000
        return "\(thousandths / 1000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }
}

/// Reads everything waiting on a nonblocking descriptor.
func drain(_ fd: FileDescriptor) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while let count = try? buffer.withUnsafeMutableBytes({ try fd.read(into: $0) }), count > 0 {
        result += buffer[..<count]
    }
    return result
}

/// The output speed of the terminal `fd` as a baud rate.
func terminalRate(_ fd: FileDescriptor) -> Int? {
    var attributes = termios()
    guard tcgetattr(fd.rawValue, &attributes) == 0 else { return nil }
    let speeds: [speed_t: Int] = [
        speed_t(B9600): 9600, speed_t(B38400): 38400, speed_t(B57600): 57600, speed_t(B115200): 115200,
    ]
    return speeds[cfgetospeed(&attributes)]
}

/// A board file for a receiver on `path`, parsed like the shipped ones.
func testBoard(
    path: String, family: String = "generic", model: String = "test receiver", baud: String = "\"auto\"",
    candidates: [Int] = [9600, 115200], switchTo: Int? = nil, strategy: String = "none",
    accelerometer: String? = nil, gpio: String? = nil
) throws -> BoardDefinition {
    var text = """
        name = "test board"
        [receiver]
        model = "\(model)"
        family = "\(family)"
        [receiver.current_ma]
        acquisition = 30
        tracking = 25
        standby = 1
        backup = 0.02
        [uart]
        path = "\(path)"
        baud = \(baud)
        candidates = [\(candidates.map(String.init).joined(separator: ", "))]

        """
    if let switchTo { text += "switch_to = \(switchTo)\n" }
    if let accelerometer { text += "[accelerometer]\n\(accelerometer)\n" }
    if let gpio { text += gpio + "\n" }
    text += "[power]\nstrategy = \"\(strategy)\"\n"
    return try BoardDefinition.parse(text, file: "test.toml")
}
