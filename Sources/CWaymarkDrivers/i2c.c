// SMBus transfers with ioctl(I2C_SMBUS), as libi2c does them: no I2C_RDWR, so they work on
// adapters that only speak SMBus (i2c-stub) as well as on the Pi's i2c-bcm2835.
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>

#include "CWaymarkDrivers.h"

static int transfer(int fd, char read_write, uint8_t command, int size, union i2c_smbus_data *data) {
    struct i2c_smbus_ioctl_data arguments = {
        .read_write = read_write, .command = command, .size = size, .data = data,
    };
    int result;
    do {
        result = ioctl(fd, I2C_SMBUS, &arguments);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

int waymark_i2c_set_address(int fd, uint16_t address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address) < 0 ? -errno : 0;
}

int waymark_i2c_read_byte_data(int fd, uint8_t reg) {
    union i2c_smbus_data data;
    int result = transfer(fd, I2C_SMBUS_READ, reg, I2C_SMBUS_BYTE_DATA, &data);
    return result < 0 ? result : data.byte;
}

int waymark_i2c_write_byte_data(int fd, uint8_t reg, uint8_t value) {
    union i2c_smbus_data data = {.byte = value};
    return transfer(fd, I2C_SMBUS_WRITE, reg, I2C_SMBUS_BYTE_DATA, &data);
}

int waymark_i2c_read_word_data(int fd, uint8_t reg) {
    union i2c_smbus_data data;
    int result = transfer(fd, I2C_SMBUS_READ, reg, I2C_SMBUS_WORD_DATA, &data);
    return result < 0 ? result : data.word;
}

int waymark_i2c_write_word_data(int fd, uint8_t reg, uint16_t value) {
    union i2c_smbus_data data = {.word = value};
    return transfer(fd, I2C_SMBUS_WRITE, reg, I2C_SMBUS_WORD_DATA, &data);
}

int waymark_i2c_read_block(int fd, uint8_t reg, uint8_t length, uint8_t *values) {
    if (length == 0 || length > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
    union i2c_smbus_data data = {.block = {length}};
    int result = transfer(fd, I2C_SMBUS_READ, reg, I2C_SMBUS_I2C_BLOCK_DATA, &data);
    if (result < 0) return result;
    memcpy(values, &data.block[1], data.block[0]);
    return data.block[0];
}

int waymark_i2c_write_block(int fd, uint8_t reg, uint8_t length, const uint8_t *values) {
    if (length == 0 || length > I2C_SMBUS_BLOCK_MAX) return -EINVAL;
    union i2c_smbus_data data;
    data.block[0] = length;
    memcpy(&data.block[1], values, length);
    return transfer(fd, I2C_SMBUS_WRITE, reg, I2C_SMBUS_I2C_BLOCK_DATA, &data);
}
