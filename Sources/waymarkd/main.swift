import WaymarkDaemon
import WaymarkProtocol
import WaymarkSimulation
import WaymarkSystem

// waymarkd: the Waymark location agent. Options are parsed by hand to keep the daemon small
// (no Foundation, no argument-parsing library in its footprint).

let usage = """
    usage: waymarkd [--socket PATH] [--store FILE] [--policies DIR] [--relaunch-directory DIR]
                    [--gpsd [--gpsd-port N]] [--verbose]
                    [ --board BOARD                                                 (the hardware a board file names)
                    | [--scenario SCENARIO] [--receiver NAME] [--seed N] [--speed X]  (simulated board, the default)
                    | --replay FILE [--repeat] [--speed X]
                    | --device PATH [--baud N] [--serial] ]
           waymarkd --version | --help

      --socket PATH    where to listen (default: $WAYMARK_SOCKET, else waymark.sock in
                       $RUNTIME_DIRECTORY under systemd, else /run/waymark/waymark.sock as
                       root, else $XDG_RUNTIME_DIR/waymark/waymark.sock); a socket systemd passes
                       (waymarkd.socket, LISTEN_FDS) is used instead
      --store FILE     keep authorization in this database and enforce it (docs/authorization.md);
                       without it every client gets full-accuracy locations (a development daemon)
      --policies DIR   the app policy files (*.toml, root's; default /etc/waymark/apps.d, a missing
                       directory is no policy): identities, authorization, relaunch
      --relaunch-directory DIR  write an app's relaunch trigger (its policy's relaunch) here
                       when something waits for it while it is away (README, "Relaunching
                       a consumer")
      --gpsd           also serve gpsd's clients (cgps, gpspipe, gpxlogger, python3-gps) on
                       127.0.0.1:2947 and on NAME-gpsd.sock beside the socket, as consumers like any
                       other (docs/ecosystem.md); off by default
      --gpsd-port N    --gpsd on TCP port N instead of 2947 (0: any free port, logged)
      --verbose, -v    log what the daemon does (power transitions, clients) to standard error
      --board BOARD    run on the board a board file describes (a path, or a name such as
                       rpi-neo-m8n-adxl345 for a shipped Board/*.toml): its receiver (baud rate
                       detected when it says auto), power strategy and accelerometer; the
                       simulated board file runs the scenario (--scenario, --seed, --speed)
      --scenario SCENARIO  the simulated board's scenario: a path, a name such as desk-day
                       for a shipped Scenarios/*.scenario, or generated:N for the day drawn
                       from seed N (default: demo)
      --receiver NAME  the simulated receiver: ublox-m8 (default), mt3339, quectel-l76
      --seed N         the simulation's random seed, a whole number (default 1): the same seed
                       gives the same run
      --speed X        run a simulation or replay X times faster than real time (0.001 to 10000)
      --replay FILE    replay an NMEA capture at the pace of its timestamps
      --repeat         with --replay: start the capture over when it ends
      --device PATH    read NMEA from a tty, pty or FIFO (with --serial: through libserialport);
                       a missing or failing device is retried with backoff
      --baud N         the device's baud rate, 1200 to 921600 (default 9600)
      --serial         open the device through libserialport
      --version        print the version and exit
      --help, -h       print this and exit

    """

func fail(_ message: String) -> Never {
    CurrentProcess.exit(2, program: "waymarkd", saying: message)
}

/// A scenario by path or short name (`desk-day`), found as every Waymark program finds it; a
/// generated day (`generated:N`) as named.
func scenarioPath(_ name: String) -> String {
    name.hasPrefix(ScenarioGenerator.namePrefix) ? name : ShippedFile.resolve(name, directory: "Scenarios", extension: "scenario")
}

var arguments = CommandLine.arguments.dropFirst()
var socketPath = SocketPath.daemon(environment: Environment.value, uid: CurrentProcess.userID)
var scenario: String?
var receiver = "ublox-m8"
var seed: UInt64 = 1
var speed = 1.0
var replay: String?
var repeats = false
var device: String?
var board: String?
var baud = 9600
var serial = false
var verbose = false
var store: String?
var policies = "/etc/waymark/apps.d"
var relaunchDirectory: String?
var gpsdPort: UInt16?

@MainActor func value(_ option: String) -> String {
    guard let value = arguments.popFirst() else { fail("\(option) needs a value\n\(usage)") }
    // Every option names something: an empty one (a shell variable never set) is no choice.
    guard !value.isEmpty else { fail("\(option) needs a value, not an empty string\n\(usage)") }
    return value
}

/// The options given, to refuse those of another source than the one that runs.
var given: Set<String> = []

while let argument = arguments.popFirst() {
    given.insert(argument)
    switch argument {
    case "--socket": socketPath = value(argument)
    case "--store": store = value(argument)
    case "--policies": policies = value(argument)
    case "--relaunch-directory": relaunchDirectory = value(argument)
    case "--gpsd": gpsdPort = gpsdPort ?? GpsdEndpoint.defaultPort
    case "--gpsd-port":
        guard let number = UInt16(value(argument)) else { fail("--gpsd-port takes a port from 0 to 65535") }
        gpsdPort = number
    case "--scenario": scenario = value(argument)
    case "--receiver": receiver = value(argument)
    case "--seed":
        guard let number = UInt64(value(argument)) else { fail("--seed takes a whole number") }
        seed = number
    case "--speed":
        guard let number = Double(value(argument)), number >= 0.001, number <= 10_000 else {
            fail("--speed takes a number from 0.001 to 10000")
        }
        speed = number
    case "--replay": replay = value(argument)
    case "--repeat": repeats = true
    case "--device": device = value(argument)
    case "--board": board = value(argument)
    case "--baud":
        guard let number = Int(value(argument)), (1_200...921_600).contains(number) else {
            fail("--baud takes a rate from 1200 to 921600")
        }
        baud = number
    case "--serial": serial = true
    case "--verbose", "-v": verbose = true
    case "--version":
        print("waymarkd \(WaymarkRelease.version)")
        CurrentProcess.exit(0)
    case "--help", "-h":
        print(usage, terminator: "")
        CurrentProcess.exit(0)
    default: fail("unknown option '\(argument)'\n\(usage)")
    }
}

let source: DaemonOptions.Source
if [board != nil, replay != nil, device != nil].filter({ $0 }).count > 1 {
    fail("--board, --replay and --device each name the source: give one\n\(usage)")
}
let (sourceName, sourceOptions): (String, Set<String>) =
    if board != nil { ("--board", ["--scenario", "--seed", "--speed"]) }
    else if replay != nil { ("--replay", ["--repeat", "--speed"]) }
    else if device != nil { ("--device", ["--baud", "--serial"]) }
    else { ("the simulated board", ["--scenario", "--receiver", "--seed", "--speed"]) }
let everySourceOption: Set<String> = ["--scenario", "--receiver", "--seed", "--speed", "--repeat", "--baud", "--serial"]
if let stray = given.intersection(everySourceOption).subtracting(sourceOptions).sorted().first {
    fail("\(stray) does not apply to \(sourceName), which takes \(sourceOptions.sorted().joined(separator: ", "))\n\(usage)")
}
if let board {
    source = .board(
        path: ShippedFile.resolve(board, directory: "Board", extension: "toml"), scenario: scenarioPath(scenario ?? "demo"),
        seed: seed)
} else if let replay {
    source = .replay(path: replay, repeats: repeats)
} else if let device {
    source = .device(path: device, baudRate: baud, serial: serial)
} else {
    source = .simulated(scenario: scenarioPath(scenario ?? "demo"), receiver: receiver, seed: seed)
}

let activated: [FileDescriptor]
do {
    activated = try SocketActivation.take()
} catch {
    fail("\(error)")
}
if activated.count > 1 {
    fail("systemd passed \(activated.count) sockets; waymarkd listens on one (one ListenStream= in waymarkd.socket)")
}

do {
    var options = DaemonOptions(
        socketPath: socketPath, activatedSocket: activated.first, source: source, speed: speed, verbose: verbose,
        authorization: store.map { AuthorizationOptions(storePath: $0) })
    options.policyDirectory = policies
    options.relaunchDirectory = relaunchDirectory
    options.gpsdPort = gpsdPort
    let daemon = try Daemon(options: options)
    try daemon.run()
} catch {
    fail("\(error)")
}
