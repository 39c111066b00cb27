import Waymark
import WaymarkBoard
import WaymarkBridge
import WaymarkBridgeCore
import WaymarkSystem
import WaymarkLocation

// waymark-mqtt: publishes this device's Waymark locations to an MQTT broker as OwnTracks
// messages (docs/ecosystem.md). A client of waymarkd like any app, with its own identity
// (WAYMARK_APP_ID) and authorization. Options are parsed by hand, as waymarkd's are.

let usage = """
    usage: waymark-mqtt (--board BOARD | --config FILE) [--state-directory DIRECTORY]

      --board BOARD    the board file whose [mqtt] table says where to publish
      --config FILE    a file holding only an [mqtt] table
      --state-directory DIRECTORY
                       where the outbox (outbox.sqlite) lives, a directory only this user can
                       change (default: $STATE_DIRECTORY under systemd, else /var/lib/waymark-mqtt)

    Exit status: 0 after SIGTERM or SIGINT; 2 for a wrong option or settings; 1 when the system
    refuses what it needs (a signalfd, its outbox in the state directory).

    """

func fail(_ message: String, status: Int32 = 2) -> Never {
    CurrentProcess.exit(status, program: "waymark-mqtt", saying: message)
}

var arguments = CommandLine.arguments.dropFirst()
var board: String?
var config: String?
// With systemd's StateDirectory= the colon-separated list holds one directory; an empty
// value is none (never the root directory).
var stateDirectory = Environment.value("STATE_DIRECTORY")?.split(separator: ":").first.map(String.init) ?? "/var/lib/waymark-mqtt"

@MainActor func value(_ option: String) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value\n\(usage)") }
    return value
}

while let argument = arguments.popFirst() {
    switch argument {
    case "--board": board = value(argument)
    case "--config": config = value(argument)
    case "--state-directory":
        stateDirectory = value(argument)
        guard !stateDirectory.isEmpty else { fail("--state-directory takes a directory") }
    case "--help", "-h":
        print(usage, terminator: "")
        CurrentProcess.exit(0)
    default: fail("unknown option \(argument)\n\(usage)")
    }
}

let settings: MQTTSettings
let password: String?
do throws(BoardError) {
    switch (board, config) {
    case (let board?, nil):
        guard let table = try BoardDefinition.load(path: ShippedFile.resolve(board, directory: "Board", extension: "toml")).mqtt else {
            fail("\(board) has no [mqtt] table (docs/ecosystem.md)")
        }
        settings = table
    case (nil, let config?): settings = try MQTTSettings.load(path: config)
    default: fail("give --board or --config, not both nor neither\n\(usage)")
    }
    password = try settings.password()
} catch {
    fail("\(error)")
}

// Before any other thread starts, so that every thread blocks them and the loop reads them;
// after the settings are read, so that SIGINT and SIGTERM still end a read that waits (a
// FIFO's writer, a slow file system).
let signals: SignalFD
do {
    signals = try SignalFD([.terminate, .interrupt])
} catch {
    fail("\(error)", status: 1)
}
Signal.brokenPipe.ignore()

let bridge: Bridge
do {
    bridge = try Bridge(settings: settings, password: password, outboxPath: stateDirectory + "/outbox.sqlite")
} catch {
    fail("\(error)", status: 1)
}

let inbox = bridge.inbox
let device = bridge.device
Task.detached {
    var translator = UpdateTranslator(device: device)
    while true {
        do {
            for try await update in LocationUpdate.liveUpdates(.default) {
                let message = translator.message(for: update, now: Bridge.unixSeconds())
                inbox.submit(message, diagnostics: translator.diagnostics, fix: update.location)
            }
        } catch {
            inbox.submit(nil, diagnostics: ["\(error)"], fix: nil)
        }
        // The sequence ended (the daemon refused it): ask again after a while.
        try? await Task.sleep(for: .seconds(5))
    }
}

let regions = bridge.regions
if !regions.isEmpty {
    Task.detached {
        while true {
            do {
                try await RegionWatcher.watch(regions, inbox: inbox)
            } catch {
                Bridge.log("regions: \(error)")
            }
            // The monitor ended (the daemon went away or refused it): open it again after a while.
            try? await Task.sleep(for: .seconds(5))
        }
    }
}

do {
    try bridge.run { (try? signals.read()) != nil }
} catch {
    fail("\(error)", status: 1)
}
CurrentProcess.exit(0)
