// The C side of WaymarkDrivers: the SMBus transfers of /dev/i2c-N (the ioctl is variadic and
// its data union awkward in Swift), the RFC 2783 ioctls of /dev/ppsN, and one libgpiod API
// that compiles against libgpiod 1.6 and 2.x alike (gpio.c picks the branch by
// GPIOD_LINE_BULK_MAX_LINES, defined only by v1).
// Every call returns a non-negative result, or -errno on failure.
#ifndef C_WAYMARK_DRIVERS_H
#define C_WAYMARK_DRIVERS_H

#include <stddef.h>
#include <stdint.h>

// MARK: I2C (SMBus through /dev/i2c-N)

/// ioctl(I2C_SLAVE): address later transfers on `fd` to the 7-bit `address`.
int waymark_i2c_set_address(int fd, uint16_t address);
/// SMBus "read byte data": the register's value (0...255).
int waymark_i2c_read_byte_data(int fd, uint8_t reg);
/// SMBus "write byte data".
int waymark_i2c_write_byte_data(int fd, uint8_t reg, uint8_t value);
/// SMBus "read word data": the little-endian word at `reg` (0...65535).
int waymark_i2c_read_word_data(int fd, uint8_t reg);
/// SMBus "write word data" (little-endian).
int waymark_i2c_write_word_data(int fd, uint8_t reg, uint16_t value);
/// SMBus "I2C block read" of `length` (1...32) bytes from `reg` into `values`: the count read.
int waymark_i2c_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *values);
/// SMBus "I2C block write" of `length` (1...32) bytes to `reg`.
int waymark_i2c_write_block(int fd, uint8_t reg, uint8_t length, const uint8_t *values);

// MARK: GPIO (libgpiod v1 or v2)

/// An open GPIO chip.
typedef struct waymark_gpio_chip waymark_gpio_chip;
/// One requested line: an output, or an input with edge events.
typedef struct waymark_gpio_request waymark_gpio_request;

/// One edge event read from a request.
typedef struct {
    /// 1 for a rising edge, 0 for a falling edge (in the line's active sense).
    int rising;
    /// When the kernel saw it, on CLOCK_MONOTONIC.
    uint64_t timestamp_ns;
} waymark_gpio_edge;

/// Which edges an input reports.
enum { WAYMARK_GPIO_EDGE_RISING = 1, WAYMARK_GPIO_EDGE_FALLING = 2, WAYMARK_GPIO_EDGE_BOTH = 3 };

/// The libgpiod API this shim was compiled against: 1 or 2.
int waymark_gpio_api_version(void);
/// Opens the chip at `path` (/dev/gpiochipN); NULL with errno set on failure.
waymark_gpio_chip *waymark_gpio_chip_open(const char *path);
/// Closes a chip (with v1 this also releases its requested lines).
void waymark_gpio_chip_close(waymark_gpio_chip *chip);
/// Copies the chip's label (e.g. "pinctrl-bcm2711") into `buffer`, NUL-terminated.
int waymark_gpio_chip_label(waymark_gpio_chip *chip, char *buffer, size_t length);
/// The chip's number of lines.
int waymark_gpio_chip_line_count(waymark_gpio_chip *chip);
/// The offset of the line called `name` on this chip, -ENOENT if none is.
int waymark_gpio_chip_line_offset(waymark_gpio_chip *chip, const char *name);

/// Requests `offset` as an output driven to `value` (in the active sense).
waymark_gpio_request *waymark_gpio_request_output(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer, int active_low, int value);
/// Requests `offset` as an input reporting `edges` on a nonblocking descriptor. With v2 the
/// kernel debounces for `debounce_us`; v1 has no debounce (see waymark_gpio_kernel_debounces).
waymark_gpio_request *waymark_gpio_request_edges(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer, int active_low, int edges,
    unsigned long debounce_us);
/// 1 when waymark_gpio_request_edges' debounce is done by the kernel (v2), 0 otherwise.
int waymark_gpio_kernel_debounces(void);
/// Drives an output line (in the active sense).
int waymark_gpio_set_value(waymark_gpio_request *request, int value);
/// Reads a line's value (in the active sense).
int waymark_gpio_get_value(waymark_gpio_request *request);
/// The descriptor that becomes readable when an edge event is queued.
int waymark_gpio_event_fd(waymark_gpio_request *request);
/// Reads one queued edge event into `edge`: 1 if one was read, 0 if none is queued.
int waymark_gpio_read_edge(waymark_gpio_request *request, waymark_gpio_edge *edge);
/// Releases the line and frees the request.
void waymark_gpio_release(waymark_gpio_request *request);

// MARK: PPS (RFC 2783 through /dev/ppsN, never waiting)

/// The newest assert event a kernel PPS source captured.
typedef struct {
    /// Counts the source's assert events (0: none yet); it wraps.
    uint32_t sequence;
    /// When the kernel stamped it, on CLOCK_REALTIME.
    int64_t seconds;
    int32_t nanoseconds;
} waymark_pps_assert;

/// PPS_GETCAP: the source's mode bits (PPS_CAPTUREASSERT 0x01, PPS_TSFMT_TSPEC 0x1000, ...).
int waymark_pps_capabilities(int fd);
/// Makes the source capture assert events as timespecs: nothing to do when it does already
/// (PPS_GETPARAMS), else PPS_SETPARAMS (which needs CAP_SYS_TIME).
int waymark_pps_capture_assert(int fd);
/// PPS_FETCH with a zero timeout (never waits): the newest assert event into `event`.
int waymark_pps_fetch_assert(int fd, waymark_pps_assert *event);

#endif
