// libmosquitto (Debian: libmosquitto-dev), the MQTT client library of waymark-mqtt.
#include <mosquitto.h>
