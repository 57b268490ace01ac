package io.jperf.options;

import io.jperf.JperfException;

/**
 * Invalid test parameters. The message names the offending option by its perftest flag (for example
 * {@code -q/--qp}) and states the valid range or the conflicting combination, so it can be shown to the
 * user as is.
 */
public final class OptionsException extends JperfException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a user-facing message. */
    public OptionsException(String message) {
        super(Category.INVALID_INPUT, message);
    }
}
