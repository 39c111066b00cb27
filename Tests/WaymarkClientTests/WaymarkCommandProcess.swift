import Foundation

/// `waymark` run with `arguments` on the test daemon's socket, its output into a pipe.
func startWaymark(_ arguments: [String]) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = DaemonProcess.binary.deletingLastPathComponent().appendingPathComponent("waymark")
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["WAYMARK_SOCKET"] = DaemonProcess.socket
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    return (process, output)
}
