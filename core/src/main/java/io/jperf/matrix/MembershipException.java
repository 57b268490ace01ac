package io.jperf.matrix;

import io.jperf.JperfException;

/** The cluster membership cannot be read: a missing or malformed variable or option. Invalid input (exit 2). */
public final class MembershipException extends JperfException {
    private static final long serialVersionUID = 1L;

    public MembershipException(String message) {
        super(Category.INVALID_INPUT, message);
    }
}
