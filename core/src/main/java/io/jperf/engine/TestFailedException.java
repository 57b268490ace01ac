package io.jperf.engine;

/**
 * The test ran but failed: completion errors (decoded), a peer that stopped answering or went
 * away, or parameters that do not match the peer's. The message says what happened and what to
 * check.
 */
public final class TestFailedException extends RuntimeException {
    public TestFailedException(String message) {
        super(message);
    }

    public TestFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
