// libpq, the PostgreSQL client library (Debian libpq-dev). pkg-config adds -I/usr/include/postgresql;
// without it, fall back to the Debian path.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
