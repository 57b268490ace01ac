package io.jperf.verbs;

import io.jperf.JperfException;

/**
 * No usable RDMA here: the rdma-core libraries are missing, the kernel has no RDMA support,
 * there is no device, or the requested device or port does not exist. The message says why
 * and what to do.
 */
public final class RdmaUnavailableException extends JperfException {
    private static final long serialVersionUID = 1L;

    public RdmaUnavailableException(String message) {
        super(Category.NO_RDMA, message);
    }

    public RdmaUnavailableException(String message, Throwable cause) {
        super(Category.NO_RDMA, message, cause);
    }
}
