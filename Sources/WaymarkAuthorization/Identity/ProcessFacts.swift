/// What the kernel says about a connected client, read once at accept and never from the
/// client: its uid (`SO_PEERCRED`), its systemd unit (`/proc/PID/cgroup`) and its executable
/// (`/proc/PID/exe`). A fact that could not be read is nil.
package struct ProcessFacts: Hashable, Sendable {
    /// The peer's effective uid.
    package var uid: UInt32
    /// The unit the process runs in, if it runs in one that is an app (not a login session).
    package var unit: SystemdUnit?
    /// The absolute path of the program it runs, if the daemon may read it.
    package var executable: String?

    /// Facts about a process of `uid`.
    package init(uid: UInt32, unit: SystemdUnit? = nil, executable: String? = nil) {
        self.uid = uid
        self.unit = unit
        self.executable = executable
    }

    /// Facts from the raw text of `/proc/PID/cgroup` and of the `/proc/PID/exe` link (nil
    /// for what could not be read): both are parsed as untrusted.
    package init(uid: UInt32, cgroupText: [UInt8]?, executableLink: [UInt8]?) {
        self.init(
            uid: uid, unit: cgroupText.flatMap(ControlGroup.unit(inProcCgroup:)),
            executable: executableLink.flatMap(ExecutableLink.path(fromLink:)))
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
