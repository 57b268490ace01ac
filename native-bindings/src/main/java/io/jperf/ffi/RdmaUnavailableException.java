package io.jperf.ffi;

import io.jperf.JperfException;

/**
 * The RDMA user-space libraries cannot be used from this JVM: a library is missing, a symbol is
 * missing, or native access is denied. The message says what to install or which JVM flag to add.
 *
 * <p>Thrown by {@link RdmaLibraries#ensureAvailable()}; the same instance kind is returned, not
 * thrown, by {@link RdmaLibraries#unavailabilityCause()}.
 */
public final class RdmaUnavailableException extends JperfException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message actionable description (what is missing and how to fix it)
     * @param cause the underlying failure, may be {@code null}
     */
    public RdmaUnavailableException(String message, Throwable cause) {
        super(Category.NO_RDMA, message, cause);
    }
}
