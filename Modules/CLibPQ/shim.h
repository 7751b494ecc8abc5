// SwiftStateMachine, licensed under the Apache License, Version 2.0 (see LICENSE at the
// repository's root). Copyright 2026 The SwiftStateMachine authors.
//
// Debian's libpq (libpq-dev), for StateMachinePostgreSQL's PostgreSQLStore, through a module
// map without pkg-config. Named CLibPQ so that it cannot clash with another package's libpq module.
#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H

#include <postgresql/libpq-fe.h>

/// PG_DIAG_SQLSTATE, a character macro Swift does not import.
static inline int clibpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }

#endif
