// libgpiod 1.6 or 2.x (Debian: libgpiod-dev). Swift never calls it directly: the
// version-neutral API in CWaymarkDrivers does, so this module only brings the header search
// path, the link flag and the install hint.
#include <gpiod.h>
