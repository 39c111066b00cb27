/// What the kernel says about a connected client, read once at accept and never from the
/// client: its uid (`SO_PEERCRED`), its systemd unit (`/proc/PID/cgroup`), its executable
/// (`/proc/PID/exe`) and whether it runs in the foreground of a terminal (`/proc/PID/stat`).
/// A fact that could not be read is nil (false for the terminal).
package struct ProcessFacts: Hashable, Sendable {
    /// The peer's effective uid.
    package var uid: UInt32
    /// The unit the process runs in, if it runs in one that is an app (not a login session).
    package var unit: SystemdUnit?
    /// The absolute path of the program it runs, if the daemon may read it.
    package var executable: String?
    /// Whether it was in the foreground of a terminal when it connected
    /// (``ProcessStat/isInTerminalForeground(stat:)``): a command a person runs at a shell.
    package var atTerminal: Bool

    /// Facts about a process of `uid`.
    package init(uid: UInt32, unit: SystemdUnit? = nil, executable: String? = nil, atTerminal: Bool = false) {
        self.uid = uid
        self.unit = unit
        self.executable = executable
        self.atTerminal = atTerminal
    }

    /// Facts from the raw text of `/proc/PID/cgroup`, of the `/proc/PID/exe` link and of
    /// `/proc/PID/stat` (nil for what could not be read): all parsed as untrusted.
    package init(uid: UInt32, cgroupText: [UInt8]?, executableLink: [UInt8]?, statText: [UInt8]?) {
        self.init(
            uid: uid, unit: cgroupText.flatMap(ControlGroup.unit(inProcCgroup:)),
            executable: executableLink.flatMap(ExecutableLink.path(fromLink:)),
            atTerminal: statText.map(ProcessStat.isInTerminalForeground(stat:)) ?? false)
    }
}

/// A systemd unit: a system unit, or a unit of the user manager of `userManager`.
package struct SystemdUnit: Hashable, Sendable {
    /// The unit's name, such as `tracker.service`.
    package var name: String
    /// The uid whose user manager (`user@UID.service`) runs the unit; nil for a system unit.
    package var userManager: UInt32?

    /// The unit `name`, of the user manager of `userManager` when given.
    package init(_ name: String, userManager: UInt32? = nil) {
        self.name = name
        self.userManager = userManager
    }
}
