#include <sqlite3.h>
#include "CSQLiteSetup.h"

int stratus_sqlite_configure(void) {
    // Multi-thread mode: no mutex on each connection. GRDB already gives a connection to one
    // thread at a time, and the system library's default (serialized) locked and unlocked a
    // mutex around every bind, step and column read.
    int threading = sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    // No memory statistics: with them every allocation SQLite makes takes a global mutex.
    int statistics = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return threading == SQLITE_OK && statistics == SQLITE_OK ? 0 : 1;
}
