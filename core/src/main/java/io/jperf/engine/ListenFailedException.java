package io.jperf.engine;

import io.jperf.JperfException;

/**
 * A server could not listen where it was told: the port is in use, the address is not one of this
 * host's, or the port needs privileges. A failed system call (exit code 4 on the command line).
 */
public final class ListenFailedException extends JperfException {
    private static final long serialVersionUID = 1L;

    public ListenFailedException(String message, Throwable cause) {
        super(Category.CALL_FAILED, message, cause);
    }
}
