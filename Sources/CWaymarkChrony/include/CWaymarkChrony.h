// The records chrony reads from a reference clock, declared with the platform's own time_t and
// struct timeval so that their layout is the one chronyd (and ntpd, gpsd) compiled for the
// same platform uses. Field for field as in chrony's refclock_sock.c and refclock_shm.c.
#ifndef C_WAYMARK_CHRONY_H
#define C_WAYMARK_CHRONY_H

#include <sys/time.h>
#include <time.h>

/// `magic` of a SOCK refclock sample ("SOCK").
#define WAYMARK_SOCK_MAGIC 0x534f434b

/// One datagram to chrony's SOCK refclock.
struct waymark_sock_sample {
    struct timeval tv;  // the system time of the measurement
    double offset;      // true time minus system time, in seconds
    int pulse;          // nonzero: only the fraction of `offset` is known (a bare PPS pulse)
    int leap;           // 0 normal, 1 insert, 2 delete a leap second at the end of the day
    int _pad;
    int magic;          // WAYMARK_SOCK_MAGIC
};

/// The System V shared-memory key of NTP SHM unit 0; unit N is this plus N.
#define WAYMARK_NTPSHM_KEY 0x4e545030

/// An NTP SHM segment (ntpd's `struct shmTime`).
struct waymark_shm_time {
    int mode;  // 1: the reader checks `count` around its copy
    volatile int count;
    time_t clockTimeStampSec;  // the true time
    int clockTimeStampUSec;
    time_t receiveTimeStampSec;  // the system time at the same moment
    int receiveTimeStampUSec;
    int leap;
    int precision;  // log2 of the sample's precision in seconds
    int nsamples;
    volatile int valid;
    unsigned clockTimeStampNSec;
    unsigned receiveTimeStampNSec;
    int dummy[8];
};

/// Publishes one sample in `shm` with the mode 1 protocol: `valid` cleared and `count` bumped
/// before the fields change, `count` bumped and `valid` set after, with fences between, so a
/// reader that copies while it is written sees `count` change or `valid` clear.
void waymark_shm_time_store(
    struct waymark_shm_time *shm, time_t clock_seconds, unsigned clock_nanoseconds, time_t receive_seconds,
    unsigned receive_nanoseconds, int leap, int precision);

#endif
