// GNU libmicrohttpd, the HTTP server library (Debian libmicrohttpd-dev), for SurveyServer only.
//
// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call; the two inline
// functions below call them with a fixed, typed list of options instead.
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <microhttpd.h>

/// How a daemon is started: all of its options, typed.
typedef struct {
    /// The address to listen on (`struct sockaddr_in` or `sockaddr_in6`, port included; 0 for any free port).
    const struct sockaddr *address;
    /// Whether `address` is IPv6.
    int isIPv6;
    /// Threads answering requests (each polls its share of the connections).
    unsigned int threadCount;
    /// Connections open at once; more are refused.
    unsigned int connectionLimit;
    /// Seconds an idle connection is kept.
    unsigned int timeoutSeconds;
    /// Bytes of memory per connection for the request line and headers (larger requests get 431/413).
    size_t connectionMemoryLimit;
} survey_mhd_settings;

/// Starts a daemon with an internal thread pool (epoll on Linux) on `settings.address`; NULL when it cannot.
static inline struct MHD_Daemon *survey_mhd_start(
    survey_mhd_settings settings, MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
    if (settings.isIPv6) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, settings.address,
        MHD_OPTION_THREAD_POOL_SIZE, settings.threadCount,
        MHD_OPTION_CONNECTION_LIMIT, settings.connectionLimit,
        MHD_OPTION_CONNECTION_TIMEOUT, settings.timeoutSeconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings.connectionMemoryLimit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_END);
}

/// The port a running daemon listens on (the one the system chose for port 0); 0 when unknown.
static inline uint16_t survey_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
