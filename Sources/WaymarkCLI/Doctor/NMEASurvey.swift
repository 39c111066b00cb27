import WaymarkDrivers
import WaymarkNMEA
import WaymarkSystem

/// What `waymark doctor` saw on the UART: the rate at which sentences verified, the talkers,
/// sentence types and whether there is a fix.
struct NMEASurvey {
    var rate: Int?
    var sentences = 0
    var talkers: Set<String> = []
    var types: Set<String> = []
    var hasFix = false

    /// Tries each of `rates` for up to `seconds` each until sentences verify, then listens on.
    static func run(port: any ByteStreamPort, rates: [Int], seconds: Int) throws -> NMEASurvey {
        var survey = NMEASurvey()
        var detector = BaudDetector(candidates: rates)
        try port.setBaudRate(detector.currentRate)
        var framer = NMEAFramer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var deadline = MonotonicInstant.now + .seconds(seconds)
        while MonotonicInstant.now < deadline {
            let count: Int?
            if try port.descriptor.wait(for: .readable, timeout: .milliseconds(500)) {
                count = try buffer.withUnsafeMutableBytes { try port.read(into: $0) }
                if count == 0 { throw SystemError(errno: Errno.inputOutput, call: "read", argument: port.path, note: "the device went away") }
            } else {
                count = nil
            }
            let chunk = buffer[..<(count ?? 0)]
            if survey.rate != nil {
                framer.consume(chunk) { survey.note($0.text) }
                continue
            }
            switch detector.consume(chunk) {
            case .detected(let rate):
                survey.rate = rate
                framer.consume(chunk) { survey.note($0.text) }
            case .tryRate(let rate):
                try port.setBaudRate(rate)
                deadline = MonotonicInstant.now + .seconds(seconds)
            case .exhausted: return survey
            case .listening: break
            }
        }
        return survey
    }

    private mutating func note(_ text: String) {
        sentences += 1
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let address = fields.first.map(String.init) ?? ""
        guard address.count >= 5, !address.hasPrefix("P") else {
            types.insert(address)
            return
        }
        talkers.insert(String(address.prefix(2)))
        let type = String(address.dropFirst(2))
        types.insert(type)
        if type == "GGA", fields.count > 6, let quality = Int(fields[6]), quality > 0 { hasFix = true }
        if type == "RMC", fields.count > 2, fields[2] == "A" { hasFix = true }
    }
}
