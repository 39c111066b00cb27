// SQLite 3 (Debian: libsqlite3-dev), the daemon's embedded database (WaymarkStore).
#include <sqlite3.h>
