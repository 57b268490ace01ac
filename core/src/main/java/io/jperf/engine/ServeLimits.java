package io.jperf.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@code jperf serve} allows its clients: the memory one test may take on the server
 * (buffers, timestamps and queues together, see {@link ResourceEstimate}), how long one test may
 * run, who may use it (a shared secret, or anyone), and whether a client may have the server send
 * RDMA traffic to an address other than its own. Immutable.
 *
 * @param maxMemoryBytes   a request whose test needs more is refused before anything is allocated
 * @param maxDuration      a request that cannot end within it is refused; a test still running at
 *                         it (plus the timeout for setting up and reporting) is stopped
 * @param authSecret       when present, only clients that prove they know it are served
 * @param allowGidMismatch serve a client whose key message names a GID that is not its own address
 */
public record ServeLimits(long maxMemoryBytes, Duration maxDuration, Optional<AuthSecret> authSecret,
                          boolean allowGidMismatch) {
    /** 512 MiB: a 8 MiB {@code -a} test on 16 QPs fits; a single 1 GiB message does not. */
    public static final long DEFAULT_MAX_MEMORY = 512L << 20;
    /** 300 s: perftest's longest usual runs, with room. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofSeconds(300);
    /** The defaults: open to anyone, traffic only to each client's own address. */
    public static final ServeLimits DEFAULTS = new ServeLimits(DEFAULT_MAX_MEMORY, DEFAULT_MAX_DURATION,
            Optional.empty(), false);

    public ServeLimits {
        Objects.requireNonNull(maxDuration, "maxDuration");
        Objects.requireNonNull(authSecret, "authSecret");
        if (maxMemoryBytes <= 0) {
            throw new IllegalArgumentException("the memory limit must be positive (got " + maxMemoryBytes + ")");
        }
        if (maxDuration.isNegative() || maxDuration.isZero()) {
            throw new IllegalArgumentException("the duration limit must be positive (got " + maxDuration + ")");
        }
    }

    public ServeLimits withMaxMemory(long bytes) {
        return new ServeLimits(bytes, maxDuration, authSecret, allowGidMismatch);
    }

    public ServeLimits withMaxDuration(Duration value) {
        return new ServeLimits(maxMemoryBytes, value, authSecret, allowGidMismatch);
    }

    public ServeLimits withAuthSecret(AuthSecret value) {
        return new ServeLimits(maxMemoryBytes, maxDuration, Optional.ofNullable(value), allowGidMismatch);
    }

    public ServeLimits withAllowGidMismatch(boolean value) {
        return new ServeLimits(maxMemoryBytes, maxDuration, authSecret, value);
    }
}
