// libserialport (Debian: libserialport-dev), used to open and configure real UARTs.
#include <libserialport.h>
