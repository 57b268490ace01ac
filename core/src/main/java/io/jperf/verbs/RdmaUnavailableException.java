package io.jperf.verbs;

/**
 * No usable RDMA here: the rdma-core libraries are missing, the kernel has no RDMA support,
 * there is no device, or the requested device or port does not exist. The message says why
 * and what to do.
 */
public final class RdmaUnavailableException extends RuntimeException {
    public RdmaUnavailableException(String message) {
        super(message);
    }

    public RdmaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
