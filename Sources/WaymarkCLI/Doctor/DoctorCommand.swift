import ArgumentParser
import WaymarkBoard
import WaymarkDrivers
import WaymarkSystem
import WaymarkHardware

/// `waymark doctor`: checks a real setup against its board file — config.txt, devices and
/// permissions, the accelerometer's identity, NMEA on the UART, the GPIO lines — and prints
/// each failure with the fix to apply.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the hardware a board file describes, with a fix for every failure."
    )

    @Option(help: ArgumentHelp("A board file, or the name of a shipped one (e.g. rpi-neo-m8n-adxl345).", valueName: "BOARD"))
    var board: String

    @Option(parsing: .unconditional, help: "Seconds to listen for NMEA at each candidate baud rate (1 to 600).")
    var seconds = 3

    @Option(help: "The firmware config file to check for the board's lines (default: /boot/firmware/config.txt, else /boot/config.txt as before Raspberry Pi OS 12).")
    var configTxt: String?

    func validate() throws {
        guard (1...600).contains(seconds) else { throw ValidationError("--seconds must be 1 to 600") }
    }

    func run() throws {
        var report = DoctorReport()
        let definition: BoardDefinition
        do {
            definition = try BoardDefinition.load(path: ShippedFile.resolve(board, directory: "Board", extension: "toml"))
        } catch {
            report.record("board", .failure(error.problem, fix: "\(error.fix) (\(error.file)\(error.line.map { ":\($0)" } ?? ""), \(error.key))"))
            throw ExitCode(1)
        }
        report.record("board", .ok(definition.name))
        if definition.isSimulated {
            report.record("hardware", .ok("simulated board: nothing to check"))
            return
        }
        checkConfigTxt(definition, &report)
        if let uart = definition.uart { checkUART(uart, definition.receiver, &report) }
        if let accelerometer = definition.accelerometer { checkAccelerometer(accelerometer, &report) }
        if let gpio = definition.gpio { checkGPIO(gpio, &report) }
        if report.failures > 0 { throw ExitCode(1) }
    }

    /// Where the firmware's config file is looked for when `--config-txt` does not say.
    static let configTxtPaths = ["/boot/firmware/config.txt", "/boot/config.txt"]

    private func checkConfigTxt(_ board: BoardDefinition, _ report: inout DoctorReport) {
        guard !board.configTxt.isEmpty else { return }
        let candidates = configTxt.map { [$0] } ?? Self.configTxtPaths
        guard let (configTxt, text) = candidates.lazy.compactMap({ path in (try? readText(path)).map { (path, $0) } }).first else {
            let needed = board.configTxt.joined(separator: ", ")
            // Named and unreadable is a mistake; none where Raspberry Pi OS keeps it may be another board.
            return report.record(
                "config.txt",
                configTxt == nil
                    ? .warning("none at \(candidates.joined(separator: " or ")): the board needs \(needed)", fix: "give its path with --config-txt, or check those lines by hand")
                    : .failure("cannot read \(candidates[0])", fix: "give --config-txt the firmware's config file (\(Self.configTxtPaths.joined(separator: ", or before Raspberry Pi OS 12 ")))"))
        }
        let lines = Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }.map(String.init))
        let missing = board.configTxt.filter { !lines.contains($0) }
        report.record(
            "config.txt",
            missing.isEmpty ? .ok("has " + board.configTxt.joined(separator: ", "))
                : .failure("\(configTxt) lacks " + missing.joined(separator: ", "), fix: "add those lines to \(configTxt) and reboot"))
    }

    private func checkUART(_ uart: UARTSpec, _ receiver: ReceiverSpec, _ report: inout DoctorReport) {
        if let problem = DeviceAccess.problem(uart.path, group: "dialout") { return report.record("uart", problem) }
        let rates = uart.baud.map { [$0] } ?? uart.candidates
        do {
            let port = try SerialPort(path: uart.path, baudRate: rates[0])
            defer { try? port.close() }
            let survey = try NMEASurvey.run(port: port, rates: rates, seconds: seconds)
            guard let rate = survey.rate else {
                return report.record("uart", .failure(
                    "no checksummed NMEA on \(uart.path) at " + rates.map(String.init).joined(separator: ", ") + " baud",
                    fix: "check TX→RX wiring and power of the \(receiver.model), that nothing else (serial console, gpsd) holds the port, and uart.candidates"))
            }
            report.record("uart", .ok(
                "\(uart.path) at \(rate) baud: \(survey.sentences) sentences, talkers \(survey.talkers.sorted().joined(separator: " ")), types \(survey.types.sorted().joined(separator: " "))"))
            report.record("fix", survey.hasFix ? .ok("the receiver reports a fix")
                : .warning("no fix yet", fix: "give the antenna a view of the sky; a cold start takes about 30 s"))
        } catch {
            report.record("uart", .failure("\(error)", fix: "check uart.path in the board file and that no other program holds the port"))
        }
    }

    private func checkAccelerometer(_ spec: AccelerometerSpec, _ report: inout DoctorReport) {
        if let problem = DeviceAccess.problem(spec.bus, group: "i2c") { return report.record("accelerometer", problem) }
        do {
            let device = try I2CDevice(bus: spec.bus, address: spec.address)
            defer { try? device.close() }
            try makeAccelerometer(spec.chip, on: device).probe()
            report.record("accelerometer", .ok("\(spec.chip.rawValue) answers on \(device.location)"))
        } catch let error as AccelerometerError {
            report.record("accelerometer", .failure(error.description, fix: "see above; without it Waymark falls back to GPS-only stationary detection"))
        } catch {
            report.record("accelerometer", .failure("\(error)", fix: "check accelerometer.bus and accelerometer.address (i2cdetect -y 1)"))
        }
    }

    private func checkGPIO(_ gpio: GPIOSpec, _ report: inout DoctorReport) {
        let chip: GPIOChip
        do {
            chip = try GPIOChip.find(gpio.chips)
        } catch {
            return report.record("gpio", .failure(error.description, fix: "set gpio.chip to a label or path listed above (gpiodetect shows them); add the user to group gpio"))
        }
        defer { chip.close() }
        report.record("gpio", .ok("\(chip.path) (\(chip.label)), \(chip.lineCount) lines"))
        let lines: [(String, LineSpec?)] = [
            ("enable", gpio.enable), ("accel_int", gpio.accelerometerInterrupt), ("pps", gpio.pps),
            ("marker", gpio.marker), ("extint", gpio.extint),
        ]
        for case let (name, spec?) in lines {
            do {
                report.record("gpio.\(name)", .ok("line \(spec.line) is offset \(try chip.offset(of: spec.line))"))
            } catch {
                report.record("gpio.\(name)", .failure(error.description, fix: "set gpio.\(name).line to a name or offset gpioinfo lists"))
            }
        }
    }

    private func readText(_ path: String) throws -> String {
        let source = try ByteSource(path: path)
        defer { source.close() }
        var text: [UInt8] = []
        try source.forEachChunk { text += $0 }
        return String(decoding: text, as: UTF8.self)
    }
}
