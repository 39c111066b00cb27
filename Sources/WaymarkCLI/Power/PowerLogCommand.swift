import ArgumentParser
import Waymark
import WaymarkDrivers
import WaymarkPowerProfile
import WaymarkProtocol
import WaymarkSystem
import WaymarkLocation

/// `waymark power-log`: records a measurement run on a real board to CSV.
struct PowerLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-log",
        abstract: "Record the daemon's receiver power transitions (and a current sensor's samples) to CSV.",
        discussion: """
            Polls waymarkd once a second for its receiver power transitions (wall-clock times, \
            states, reasons) and, with --sensor, samples an INA219/INA226 shunt monitor on I2C. \
            Rows are written as they come (time,kind,from,state,current_mA,reason), so Ctrl-C \
            loses nothing. Merge an external meter's trace with `waymark power-report`.
            """
    )

    @Option(name: .long, help: "The CSV file to write.")
    var output = "power-log.csv"

    @Option(name: .long, parsing: .unconditional, help: "Stop after this many seconds (default: until Ctrl-C).")
    var duration: Double?

    @Option(name: .long, help: "A current sensor to sample: ina219 or ina226.")
    var sensor: String?

    @Option(name: .long, help: "The sensor's I2C bus.")
    var bus = "/dev/i2c-1"

    @Option(name: .long, help: "The sensor's I2C address (e.g. 0x40).")
    var address = "0x40"

    @Option(name: .long, parsing: .unconditional, help: "The shunt resistance, ohms.")
    var shuntOhms = 0.1

    @Option(name: .long, parsing: .unconditional, help: "Sensor samples per second.")
    var rate = 10.0

    func validate() throws {
        if let sensor, CurrentSensor.Chip(rawValue: sensor) == nil {
            throw ValidationError("--sensor must be ina219 or ina226, not '\(sensor)'")
        }
        guard rate > 0, rate <= 1_000 else { throw ValidationError("--rate must be above 0 and at most 1000") }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a number of seconds above 0") }
        guard shuntOhms > 0, shuntOhms.isFinite else { throw ValidationError("--shunt-ohms must be a resistance above 0") }
        guard UInt8(address.replacing("0x", with: ""), radix: 16) != nil else {
            throw ValidationError("--address must be a 7-bit I2C address such as 0x40")
        }
    }

    func run() async throws {
        let currentSensor = try openSensor()
        let file = try OutputFile(path: output)
        defer { file.close() }
        try file.append(line: PowerLog.header)
        var cursor = TransitionCursor()
        let started = RealtimeInstant.now
        var nextStatus = 0.0
        while duration.map({ seconds(since: started) < $0 }) ?? true {
            if let currentSensor {
                let now = seconds(since: .init(nanosecondsSinceEpoch: 0))
                try file.append(line: PowerLog.row(PowerLog.Sample(time: now, current: try currentSensor.current())))
            }
            if seconds(since: started) >= nextStatus {
                nextStatus += 1
                let status = try await WaymarkAgent.status()
                for transition in cursor.unwritten(in: status) {
                    try file.append(line: PowerLog.row(PowerLog.Transition(
                        time: transition.time, from: transition.from, state: transition.to, reason: transition.reason)))
                }
            }
            try await Task.sleep(for: .milliseconds(Int64(currentSensor == nil ? 1_000 : 1_000 / rate)))
        }
    }

    private func openSensor() throws -> CurrentSensor? {
        guard let sensor, let chip = CurrentSensor.Chip(rawValue: sensor),
            let address = UInt8(address.replacing("0x", with: ""), radix: 16)
        else { return nil }
        return try CurrentSensor(device: try I2CDevice(bus: bus, address: address), chip: chip, shuntOhms: shuntOhms)
    }

    private func seconds(since start: RealtimeInstant) -> Double {
        Double(RealtimeInstant.now.nanosecondsSinceEpoch - start.nanosecondsSinceEpoch) / 1e9
    }
}
