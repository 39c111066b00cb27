// The Linux interfaces Swift's Glibc module leaves out: epoll, timerfd, eventfd and signalfd
// headers, and the GNU and X/Open calls it hides (it is built without _GNU_SOURCE), which
// shim.c compiles with _GNU_SOURCE and exports under a waymark_ prefix.
#ifndef C_WAYMARK_SYSTEM_H
#define C_WAYMARK_SYSTEM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/types.h>

/// accept4(2) without the peer address.
int waymark_accept4(int fd, int flags);

/// getsockopt(SO_PEERCRED) on `fd` (struct ucred is GNU-only). Returns 0, or -1 with errno set.
int waymark_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// malloc_trim(3): gives freed heap memory back to the system. Returns 1 if some was.
int waymark_malloc_trim(size_t pad);
/// mallopt(3): allocations of at least `bytes` are mapped on their own, and free memory at the
/// heap's top beyond `bytes` is given back, both fixed (glibc raises them otherwise). Returns 1 on success.
int waymark_malloc_fix_thresholds(int bytes);

/// posix_openpt(3).
int waymark_posix_openpt(int flags);

/// grantpt(3).
int waymark_grantpt(int fd);

/// unlockpt(3).
int waymark_unlockpt(int fd);

/// ptsname_r(3): the path of the pseudo-terminal secondary for `fd`. Returns 0 or an errno value.
int waymark_ptsname_r(int fd, char *buffer, size_t length);

/// ioctl(TIOCGWINSZ): the terminal's width in columns. Returns 0, or -1 with errno set.
int waymark_terminal_columns(int fd, unsigned short *columns);

/// getsockopt(SO_PEERPIDFD) on `fd`: a pidfd of the peer process (Linux 6.5 and later).
/// Returns the pidfd, or -1 with errno set (ENOPROTOOPT on an older kernel).
int waymark_peer_pidfd(int fd);

/// pidfd_send_signal(pidfd, 0): 0 while the process lives (or is a zombie, whose pid is not
/// reused), or -1 with errno ESRCH once it is gone.
int waymark_pidfd_alive(int pidfd);

/// getgrouplist(3) (a BSD call Glibc's module hides).
int waymark_getgrouplist(const char *user, gid_t group, gid_t *groups, int *count);

/// getrandom(2) from the kernel's pool (blocking only until it is first seeded).
long waymark_getrandom(void *buffer, size_t count);

#endif
