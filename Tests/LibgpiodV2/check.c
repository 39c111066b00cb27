// Exercises the GPIO shim (Sources/CWaymarkDrivers/gpio.c) compiled against libgpiod 2.x, on the
// VM's gpio-sim chip: an output's level read back through gpio-sim's sysfs, and an edge
// event when the test flips an input's pull. Built and run by Scripts/check-libgpiod-v2.
#include "CWaymarkDrivers.h"

#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what) {
    printf("%s %s\n", ok ? "PASS" : "FAIL", what);
    if (!ok) failures++;
}

static void write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    if (file) { fputs(text, file); fclose(file); }
}

static int read_int(const char *path) {
    FILE *file = fopen(path, "r");
    int value = -1;
    if (file) { if (fscanf(file, "%d", &value) != 1) value = -1; fclose(file); }
    return value;
}

int main(void) {
    const char *label = getenv("WAYMARK_GPIO_LABEL");
    const char *sysfs = getenv("WAYMARK_GPIO_SYSFS");
    if (!label || !sysfs) { fprintf(stderr, "run inside the VM (Scripts/vm/run)\n"); return 2; }
    check(waymark_gpio_api_version() == 2, "the shim took its libgpiod 2.x branch");

    waymark_gpio_chip *chip = NULL;
    DIR *dev = opendir("/dev");
    struct dirent *entry;
    char path[300], name[64];
    while (dev && (entry = readdir(dev)) && !chip) {
        if (strncmp(entry->d_name, "gpiochip", 8) != 0) continue;
        snprintf(path, sizeof path, "/dev/%s", entry->d_name);
        waymark_gpio_chip *candidate = waymark_gpio_chip_open(path);
        if (candidate && waymark_gpio_chip_label(candidate, name, sizeof name) == 0 && strcmp(name, label) == 0) {
            chip = candidate;
        } else if (candidate) {
            waymark_gpio_chip_close(candidate);
        }
    }
    if (dev) closedir(dev);
    check(chip != NULL, "found the gpio-sim chip by its label");
    if (!chip) return 1;

    int enable = waymark_gpio_chip_line_offset(chip, "gps-enable");
    int interrupt = waymark_gpio_chip_line_offset(chip, "accel-int");
    check(enable >= 0 && interrupt >= 0, "found the lines by name");

    waymark_gpio_request *output = waymark_gpio_request_output(chip, (unsigned)enable, "waymark-check", 0, 1);
    snprintf(path, sizeof path, "%s/sim_gpio%d/value", sysfs, enable);
    check(output && read_int(path) == 1, "an output driven high reads 1 in gpio-sim");
    if (output) waymark_gpio_set_value(output, 0);
    check(output && read_int(path) == 0, "driven low it reads 0");

    snprintf(path, sizeof path, "%s/sim_gpio%d/pull", sysfs, interrupt);
    write_file(path, "pull-down");
    waymark_gpio_request *input = waymark_gpio_request_edges(
        chip, (unsigned)interrupt, "waymark-check", 0, WAYMARK_GPIO_EDGE_BOTH, 0);
    check(input != NULL, "an input with edge events");
    write_file(path, "pull-up");
    struct pollfd readable = {.fd = input ? waymark_gpio_event_fd(input) : -1, .events = POLLIN};
    waymark_gpio_edge edge = {0};
    int ready = poll(&readable, 1, 2000);
    check(ready == 1 && waymark_gpio_read_edge(input, &edge) == 1 && edge.rising == 1,
          "flipping the pull up gives a rising edge on the event descriptor");
    check(waymark_gpio_kernel_debounces() == 1, "the kernel debounces with 2.x");

    if (output) waymark_gpio_release(output);
    if (input) waymark_gpio_release(input);
    waymark_gpio_chip_close(chip);
    printf("%d passed, %d failed\n", 8 - failures, failures);
    return failures ? 1 : 0;
}
