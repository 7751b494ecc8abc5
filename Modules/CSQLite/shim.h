// SwiftStateMachine, licensed under the Apache License, Version 2.0 (see LICENSE at the
// repository's root). Copyright 2026 The SwiftStateMachine authors.
//
// Debian's SQLite (libsqlite3-dev), for StateMachineDurable's SQLiteStore. Named CSQLite so
// that it cannot clash with the SQLite3 module Apple's SDKs define.
#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT, which Swift cannot import (a macro casting -1 to a function pointer):
/// SQLite copies the bound text or blob before the bind call returns.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
