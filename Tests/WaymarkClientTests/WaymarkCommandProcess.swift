import Foundation

/// `waymark` run with `arguments` on the test daemon's socket, its output and errors into pipes.
func startWaymark(_ arguments: [String]) throws -> (Process, output: Pipe, error: Pipe) {
    let process = Process()
    process.executableURL = DaemonProcess.binary.deletingLastPathComponent().appendingPathComponent("waymark")
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["WAYMARK_SOCKET"] = DaemonProcess.socket
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    let error = Pipe()
    process.standardError = error
    try process.run()
    return (process, output, error)
}
