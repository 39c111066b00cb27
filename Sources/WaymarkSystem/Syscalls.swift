import CWaymarkSystem
import Glibc

// One tiny internal wrapper per C call, in the manner of swift-system's Syscalls.swift: the
// only place WaymarkSystem touches libc, so every call is easy to find, trace or fake.
// The typed API over these lives in the other files; EINTR and errno handling in Check.swift.

// MARK: Files

internal func system_open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}

internal func system_create(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

internal func system_close(_ fd: Int32) -> Int32 {
    close(fd)
}

internal func system_dup2(_ fd: Int32, _ target: Int32) -> Int32 {
    dup2(fd, target)
}

internal func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

internal func system_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}

internal func system_lstat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 {
    lstat(path, &status)
}

internal func system_stat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 {
    stat(path, &status)
}

internal func system_fstat(_ fd: Int32, _ status: inout stat) -> Int32 {
    fstat(fd, &status)
}

internal func system_mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
    mkdir(path, mode)
}

internal func system_access(_ path: UnsafePointer<CChar>, _ mode: Int32) -> Int32 {
    access(path, mode)
}

internal func system_opendir(_ path: UnsafePointer<CChar>) -> OpaquePointer? {
    opendir(path)
}

internal func system_readdir(_ directory: OpaquePointer) -> UnsafeMutablePointer<dirent>? {
    readdir(directory)
}

internal func system_closedir(_ directory: OpaquePointer) -> Int32 {
    closedir(directory)
}

internal func system_getgrgid(_ id: gid_t) -> UnsafeMutablePointer<group>? {
    getgrgid(id)
}

internal func system_realpath(_ path: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? {
    realpath(path, nil)
}

internal func system_fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32 {
    fcntl(fd, command, value)
}

internal func system_chmod(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
    chmod(path, mode)
}

internal func system_unlink(_ path: UnsafePointer<CChar>) -> Int32 {
    unlink(path)
}

internal func system_poll(_ request: inout pollfd, _ timeout: Int32) -> Int32 {
    poll(&request, 1, timeout)
}

// MARK: epoll, timerfd, eventfd, signalfd

internal func system_epoll_create1(_ flags: Int32) -> Int32 {
    epoll_create1(flags)
}

internal func system_epoll_ctl(
    _ epfd: Int32, _ op: Int32, _ fd: Int32, _ event: inout epoll_event
) -> Int32 {
    epoll_ctl(epfd, op, fd, &event)
}

internal func system_epoll_wait(
    _ epfd: Int32, _ events: UnsafeMutablePointer<epoll_event>?, _ maxEvents: Int32,
    _ timeout: Int32
) -> Int32 {
    epoll_wait(epfd, events, maxEvents, timeout)
}

internal func system_timerfd_create(_ clock: clockid_t, _ flags: Int32) -> Int32 {
    timerfd_create(clock, flags)
}

internal func system_timerfd_settime(
    _ fd: Int32, _ flags: Int32, _ value: inout itimerspec
) -> Int32 {
    timerfd_settime(fd, flags, &value, nil)
}

internal func system_eventfd(_ initialValue: UInt32, _ flags: Int32) -> Int32 {
    eventfd(initialValue, flags)
}

internal func system_signalfd(_ fd: Int32, _ mask: inout sigset_t, _ flags: Int32) -> Int32 {
    signalfd(fd, &mask, flags)
}

internal func system_pthread_sigmask(_ how: Int32, _ mask: inout sigset_t) -> Int32 {
    pthread_sigmask(how, &mask, nil)
}

// MARK: Sockets

internal func system_socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
    socket(domain, type, proto)
}

internal func system_bind(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int32 {
    bind(fd, address, length)
}

internal func system_connect(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int32 {
    connect(fd, address, length)
}

internal func system_listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

internal func system_accept4(_ fd: Int32, _ flags: Int32) -> Int32 {
    waymark_accept4(fd, flags)
}

internal func system_send(
    _ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32
) -> Int {
    send(fd, buffer, count, flags)
}

internal func system_sendto(
    _ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32,
    _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int {
    sendto(fd, buffer, count, flags, address, length)
}

internal func system_getsockopt(
    _ fd: Int32, _ level: Int32, _ option: Int32, _ value: UnsafeMutableRawPointer, _ length: inout socklen_t
) -> Int32 {
    getsockopt(fd, level, option, value, &length)
}

internal func system_setsockopt(
    _ fd: Int32, _ level: Int32, _ option: Int32, _ value: UnsafeRawPointer, _ length: socklen_t
) -> Int32 {
    setsockopt(fd, level, option, value, length)
}

internal func system_getsockname(
    _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t
) -> Int32 {
    getsockname(fd, address, &length)
}

internal func system_getpeername(
    _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t
) -> Int32 {
    getpeername(fd, address, &length)
}

internal func system_peer_credentials(
    _ fd: Int32, _ pid: inout pid_t, _ uid: inout uid_t, _ gid: inout gid_t
) -> Int32 {
    waymark_peer_credentials(fd, &pid, &uid, &gid)
}

// MARK: Terminals

internal func system_posix_openpt(_ flags: Int32) -> Int32 {
    waymark_posix_openpt(flags)
}

internal func system_grantpt(_ fd: Int32) -> Int32 {
    waymark_grantpt(fd)
}

internal func system_unlockpt(_ fd: Int32) -> Int32 {
    waymark_unlockpt(fd)
}

internal func system_ptsname_r(
    _ fd: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ length: Int
) -> Int32 {
    waymark_ptsname_r(fd, buffer, length)
}

internal func system_tcgetattr(_ fd: Int32, _ attributes: inout termios) -> Int32 {
    tcgetattr(fd, &attributes)
}

internal func system_tcsetattr(_ fd: Int32, _ when: Int32, _ attributes: inout termios) -> Int32 {
    tcsetattr(fd, when, &attributes)
}

internal func system_isatty(_ fd: Int32) -> Int32 {
    isatty(fd)
}

internal func system_terminal_columns(_ fd: Int32, _ columns: inout UInt16) -> Int32 {
    waymark_terminal_columns(fd, &columns)
}

internal func system_tcdrain(_ fd: Int32) -> Int32 {
    tcdrain(fd)
}

internal func system_cfsetspeed(_ attributes: inout termios, _ speed: speed_t) -> Int32 {
    cfsetspeed(&attributes, speed)
}

internal func system_cfmakeraw(_ attributes: inout termios) {
    cfmakeraw(&attributes)
}

// MARK: Clocks

internal func system_clock_gettime(_ clock: clockid_t, _ time: inout timespec) -> Int32 {
    clock_gettime(clock, &time)
}

// MARK: Processes and users

internal func system_readlink(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
    readlink(path, buffer, size)
}

internal func system_peer_pidfd(_ fd: Int32) -> Int32 {
    waymark_peer_pidfd(fd)
}

internal func system_pidfd_alive(_ pidfd: Int32) -> Int32 {
    waymark_pidfd_alive(pidfd)
}

internal func system_getpwuid_r(
    _ uid: uid_t, _ entry: inout passwd, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int,
    _ result: inout UnsafeMutablePointer<passwd>?
) -> Int32 {
    getpwuid_r(uid, &entry, buffer, size, &result)
}

internal func system_getgrnam_r(
    _ name: UnsafePointer<CChar>, _ entry: inout group, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int,
    _ result: inout UnsafeMutablePointer<group>?
) -> Int32 {
    getgrnam_r(name, &entry, buffer, size, &result)
}

internal func system_getgrouplist(
    _ user: UnsafePointer<CChar>, _ group: gid_t, _ groups: UnsafeMutablePointer<gid_t>, _ count: inout Int32
) -> Int32 {
    waymark_getgrouplist(user, group, groups, &count)
}

internal func system_getrandom(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    waymark_getrandom(buffer, count)
}
