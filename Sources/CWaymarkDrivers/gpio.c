// One GPIO API over libgpiod 1.6 (Debian and Raspberry Pi OS bookworm) and 2.x (trixie). The
// two share header, pkg-config name and -lgpiod, not their API; GPIOD_LINE_BULK_MAX_LINES is
// defined only by v1.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <gpiod.h>

#include "CWaymarkDrivers.h"

struct waymark_gpio_chip {
    struct gpiod_chip *chip;
};

static int make_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0 ? -errno : 0;
}

waymark_gpio_chip *waymark_gpio_chip_open(const char *path) {
    struct gpiod_chip *chip = gpiod_chip_open(path);
    if (!chip) return NULL;
    waymark_gpio_chip *result = malloc(sizeof *result);
    if (!result) {
        gpiod_chip_close(chip);
        errno = ENOMEM;
        return NULL;
    }
    result->chip = chip;
    return result;
}

void waymark_gpio_chip_close(waymark_gpio_chip *chip) {
    gpiod_chip_close(chip->chip);
    free(chip);
}

static int copy_label(const char *label, char *buffer, size_t length) {
    if (length == 0) return -EINVAL;
    strncpy(buffer, label ? label : "", length - 1);
    buffer[length - 1] = 0;
    return 0;
}

#ifdef GPIOD_LINE_BULK_MAX_LINES
// MARK: libgpiod v1

struct waymark_gpio_request {
    struct gpiod_line *line;
};

int waymark_gpio_api_version(void) { return 1; }
int waymark_gpio_kernel_debounces(void) { return 0; }

int waymark_gpio_chip_label(waymark_gpio_chip *chip, char *buffer, size_t length) {
    return copy_label(gpiod_chip_label(chip->chip), buffer, length);
}

int waymark_gpio_chip_line_count(waymark_gpio_chip *chip) {
    return (int)gpiod_chip_num_lines(chip->chip);
}

int waymark_gpio_chip_line_offset(waymark_gpio_chip *chip, const char *name) {
    struct gpiod_line *line = gpiod_chip_find_line(chip->chip, name);
    return line ? (int)gpiod_line_offset(line) : -(errno ? errno : ENOENT);
}

static waymark_gpio_request *wrap_line(struct gpiod_line *line) {
    waymark_gpio_request *request = malloc(sizeof *request);
    if (!request) {
        gpiod_line_release(line);
        errno = ENOMEM;
        return NULL;
    }
    request->line = line;
    return request;
}

waymark_gpio_request *waymark_gpio_request_output(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer, int active_low, int value) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return NULL;
    int flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
    if (gpiod_line_request_output_flags(line, consumer, flags, value) < 0) return NULL;
    return wrap_line(line);
}

waymark_gpio_request *waymark_gpio_request_edges(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer, int active_low, int edges,
    unsigned long debounce_us) {
    (void)debounce_us;  // v1 has no debounce: the caller filters in software.
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return NULL;
    struct gpiod_line_request_config config = {
        .consumer = consumer,
        .request_type = edges == WAYMARK_GPIO_EDGE_RISING    ? GPIOD_LINE_REQUEST_EVENT_RISING_EDGE
                        : edges == WAYMARK_GPIO_EDGE_FALLING ? GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE
                                                             : GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES,
        .flags = active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0,
    };
    if (gpiod_line_request(line, &config, 0) < 0) return NULL;
    int result = make_nonblocking(gpiod_line_event_get_fd(line));
    if (result < 0) {
        gpiod_line_release(line);
        errno = -result;
        return NULL;
    }
    return wrap_line(line);
}

int waymark_gpio_set_value(waymark_gpio_request *request, int value) {
    return gpiod_line_set_value(request->line, value) < 0 ? -errno : 0;
}

int waymark_gpio_get_value(waymark_gpio_request *request) {
    int value = gpiod_line_get_value(request->line);
    return value < 0 ? -errno : value;
}

int waymark_gpio_event_fd(waymark_gpio_request *request) {
    int fd = gpiod_line_event_get_fd(request->line);
    return fd < 0 ? -errno : fd;
}

int waymark_gpio_read_edge(waymark_gpio_request *request, waymark_gpio_edge *edge) {
    struct gpiod_line_event event;
    if (gpiod_line_event_read(request->line, &event) < 0) return errno == EAGAIN ? 0 : -errno;
    edge->rising = event.event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    edge->timestamp_ns = (uint64_t)event.ts.tv_sec * 1000000000u + (uint64_t)event.ts.tv_nsec;
    return 1;
}

void waymark_gpio_release(waymark_gpio_request *request) {
    gpiod_line_release(request->line);
    free(request);
}

#else
// MARK: libgpiod v2 (type-checked against the 2.x prototypes; not run: bookworm ships 1.6)

struct waymark_gpio_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
};

int waymark_gpio_api_version(void) { return 2; }
int waymark_gpio_kernel_debounces(void) { return 1; }

int waymark_gpio_chip_label(waymark_gpio_chip *chip, char *buffer, size_t length) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip->chip);
    if (!info) return -errno;
    int result = copy_label(gpiod_chip_info_get_label(info), buffer, length);
    gpiod_chip_info_free(info);
    return result;
}

int waymark_gpio_chip_line_count(waymark_gpio_chip *chip) {
    struct gpiod_chip_info *info = gpiod_chip_get_info(chip->chip);
    if (!info) return -errno;
    int count = (int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return count;
}

int waymark_gpio_chip_line_offset(waymark_gpio_chip *chip, const char *name) {
    int offset = gpiod_chip_get_line_offset_from_name(chip->chip, name);
    return offset < 0 ? -(errno ? errno : ENOENT) : offset;
}

/// Requests one line with `settings` (which it frees), wrapping the result.
static waymark_gpio_request *request_line(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer,
    struct gpiod_line_settings *settings, size_t event_capacity) {
    waymark_gpio_request *result = NULL;
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    if (!line_config || !request_config) goto done;
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) < 0) goto done;
    gpiod_request_config_set_consumer(request_config, consumer);
    result = calloc(1, sizeof *result);
    if (!result) goto done;
    result->offset = offset;
    if (event_capacity > 0) {
        result->events = gpiod_edge_event_buffer_new(event_capacity);
        if (!result->events) goto fail;
    }
    result->request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    if (!result->request) goto fail;
    if (event_capacity > 0) {
        int status = make_nonblocking(gpiod_line_request_get_fd(result->request));
        if (status < 0) {
            gpiod_line_request_release(result->request);
            errno = -status;
            goto fail;
        }
    }
    goto done;
fail:
    if (result->events) gpiod_edge_event_buffer_free(result->events);
    free(result);
    result = NULL;
done:
    gpiod_line_settings_free(settings);
    gpiod_line_config_free(line_config);
    gpiod_request_config_free(request_config);
    return result;
}

waymark_gpio_request *waymark_gpio_request_output(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer, int active_low, int value) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return NULL;
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT);
    gpiod_line_settings_set_active_low(settings, active_low != 0);
    gpiod_line_settings_set_output_value(
        settings, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    return request_line(chip, offset, consumer, settings, 0);
}

waymark_gpio_request *waymark_gpio_request_edges(
    waymark_gpio_chip *chip, unsigned int offset, const char *consumer, int active_low, int edges,
    unsigned long debounce_us) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return NULL;
    gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT);
    gpiod_line_settings_set_active_low(settings, active_low != 0);
    gpiod_line_settings_set_edge_detection(
        settings, edges == WAYMARK_GPIO_EDGE_RISING    ? GPIOD_LINE_EDGE_RISING
                  : edges == WAYMARK_GPIO_EDGE_FALLING ? GPIOD_LINE_EDGE_FALLING
                                                       : GPIOD_LINE_EDGE_BOTH);
    gpiod_line_settings_set_debounce_period_us(settings, debounce_us);
    return request_line(chip, offset, consumer, settings, 16);
}

int waymark_gpio_set_value(waymark_gpio_request *request, int value) {
    int result = gpiod_line_request_set_value(
        request->request, request->offset, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
    return result < 0 ? -errno : 0;
}

int waymark_gpio_get_value(waymark_gpio_request *request) {
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, request->offset);
    return value == GPIOD_LINE_VALUE_ERROR ? -errno : value == GPIOD_LINE_VALUE_ACTIVE;
}

int waymark_gpio_event_fd(waymark_gpio_request *request) {
    int fd = gpiod_line_request_get_fd(request->request);
    return fd < 0 ? -errno : fd;
}

int waymark_gpio_read_edge(waymark_gpio_request *request, waymark_gpio_edge *edge) {
    if (!request->events) return -EINVAL;
    int count = gpiod_line_request_read_edge_events(request->request, request->events, 1);
    if (count < 0) return errno == EAGAIN ? 0 : -errno;
    if (count == 0) return 0;
    struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->events, 0);
    edge->rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    edge->timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
    return 1;
}

void waymark_gpio_release(waymark_gpio_request *request) {
    gpiod_line_request_release(request->request);
    if (request->events) gpiod_edge_event_buffer_free(request->events);
    free(request);
}
#endif
