#include "CWaymarkChrony.h"

void waymark_shm_time_store(
    struct waymark_shm_time *shm, time_t clock_seconds, unsigned clock_nanoseconds, time_t receive_seconds,
    unsigned receive_nanoseconds, int leap, int precision) {
    shm->valid = 0;
    shm->count++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    shm->mode = 1;
    shm->clockTimeStampSec = clock_seconds;
    shm->clockTimeStampUSec = (int)(clock_nanoseconds / 1000);
    shm->clockTimeStampNSec = clock_nanoseconds;
    shm->receiveTimeStampSec = receive_seconds;
    shm->receiveTimeStampUSec = (int)(receive_nanoseconds / 1000);
    shm->receiveTimeStampNSec = receive_nanoseconds;
    shm->leap = leap;
    shm->precision = precision;
    shm->nsamples = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    shm->count++;
    shm->valid = 1;
}
