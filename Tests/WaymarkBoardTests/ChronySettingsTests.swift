import Testing
import WaymarkBoard

/// The `[chrony]` table of a board file: what it turns on, and hostile values refused with
/// file, line and key.
@Suite struct ChronySettingsTests {
    static func board(_ chrony: String) -> String {
        """
        name = "Simulated"
        simulated = true
        [receiver]
        model = "simulated u-blox M8"
        family = "ublox"
        supply_volts = 3.0
        [receiver.current_ma]
        acquisition = 32
        tracking = 29
        standby = 9.5
        backup = 0.02
        off = 0
        [power]
        strategy = "none"
        [chrony]
        \(chrony)
        """
    }

    @Test func socketAndUnitsAreRead() throws {
        let board = try BoardDefinition.parse(Self.board("socket = \"/run/chrony.waymark.sock\"\nshm = 0"), file: "b.toml")
        #expect(board.chrony == ChronySettings(socket: "/run/chrony.waymark.sock", sharedMemoryUnit: 0))
        let shmOnly = try BoardDefinition.parse(Self.board("shm = 254"), file: "b.toml")
        #expect(shmOnly.chrony == ChronySettings(socket: nil, sharedMemoryUnit: 254))
    }

    @Test func absentTableServesNothing() throws {
        let text = Self.board("").replacing("[chrony]", with: "")
        #expect(try BoardDefinition.parse(text, file: "b.toml").chrony == nil)
    }

    @Test(arguments: [
        ("shm = 255", "b.toml:16: chrony.shm: 255 is out of range 0...254"),
        ("shm = -1", "b.toml:16: chrony.shm: -1 is out of range 0...254"),
        ("shm = \"0\"", "b.toml:16: chrony.shm: \"0\" is not a whole number from 0 to 254"),
        ("socket = \"chrony.sock\"", "b.toml:16: chrony.socket: \"chrony.sock\" is not an absolute path"),
        ("socket = \"/run/a\\tb\"", "b.toml:16: chrony.socket: control characters are not allowed"),
        ("socket = \"/\(String(repeating: "s", count: 107))\"", "b.toml:16: chrony.socket: longer than a socket address holds"),
        ("", "b.toml:15: chrony.socket: [chrony] serves nothing"),
        ("sokcet = \"/run/c.sock\"\nshm = 0", "b.toml:16: chrony.sokcet: unknown key"),
    ])
    func hostileValuesAreRefusedWithFileLineAndKey(table: String, expected: String) {
        let error = #expect(throws: BoardError.self) { try BoardDefinition.parse(Self.board(table), file: "b.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(String(describing: error))")
    }
}
