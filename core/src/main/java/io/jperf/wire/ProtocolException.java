package io.jperf.wire;

import java.io.IOException;

/**
 * The out-of-band control exchange with the peer failed: the peer closed the connection, sent bytes that
 * are not perftest's format, is an incompatible version, or did not answer in time. The message says which
 * step failed and what to check.
 */
public final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a user-facing message. */
    public ProtocolException(String message) {
        super(message);
    }

    /** Creates the exception with a user-facing message and the underlying I/O failure. */
    public ProtocolException(String message, Throwable cause) {
        super(message, cause);
    }
}
