import Glibc
import Testing
import WaymarkBoard
import WaymarkHardware

/// The shipped board files in Board/.
@Suite struct BoardFileTests {
    static let directory = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    static let boardFiles = ["rpi-neo-m8n-adxl345", "adafruit-ultimate-gps-lis3dh", "quectel-l76-mpu6050", "simulated", "qemu-vm"]

    @Test(arguments: boardFiles)
    func everyBoardFileLoads(name: String) throws {
        let board = try BoardDefinition.load(path: "/\(Self.directory)/Board/\(name).toml")
        #expect(!board.name.isEmpty)
        #expect(board.receiver.currents.tracking > 0)
        if !board.isSimulated {
            #expect(board.uart != nil)
            #expect(board.accelerometer != nil)
            #expect(board.gpio?.accelerometerInterrupt != nil)
        }
    }

    @Test func neoM8NBoardIsComplete() throws {
        let board = try BoardDefinition.load(path: "/\(Self.directory)/Board/rpi-neo-m8n-adxl345.toml")
        #expect(board.receiver.family == .ublox)
        #expect(board.power == .ubxBackup)
        #expect(board.uart == UARTSpec(path: "/dev/serial0", baud: nil, candidates: [9600, 115200, 38400], switchTo: 115200))
        #expect(board.accelerometer == AccelerometerSpec(chip: .adxl345, bus: "/dev/i2c-1", address: 0x53))
        #expect(board.gpio?.chips == ["pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835"])
        #expect(board.gpio?.accelerometerInterrupt == LineSpec(line: .name("GPIO27"), activeLow: false))
        #expect(board.configTxt == ["enable_uart=1", "dtoverlay=disable-bt", "dtparam=i2c_arm=on"])
        #expect(board.wiring.first == WiringRow(part: "NEO-M8N VCC", board: "3V3 (pin 1)"))
    }

    @Test func everyFileInBoardIsTested() throws {
        guard let directory = opendir("/\(Self.directory)/Board") else { Issue.record("no Board/"); return }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".toml") { names.append(String(name.dropLast(5))) }
        }
        #expect(names.sorted() == Self.boardFiles.sorted())
    }
}
