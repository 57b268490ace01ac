package io.jperf.engine;

import io.jperf.JperfException;
import io.jperf.path.Verdict;

import java.util.List;

/**
 * The test ran but failed: completion errors (decoded), a peer that stopped answering or went
 * away or refused the test, or parameters that do not match the peer's. The message says what
 * happened and what to check; {@link #verdicts()} holds the path findings that may explain it.
 */
public class TestFailedException extends JperfException {
    private static final long serialVersionUID = 1L;

    private final transient List<Verdict> verdicts;

    public TestFailedException(String message) {
        this(message, null, List.of());
    }

    public TestFailedException(String message, Throwable cause) {
        this(message, cause, List.of());
    }

    public TestFailedException(String message, Throwable cause, List<Verdict> verdicts) {
        super(Category.TEST_FAILED, message, cause);
        this.verdicts = List.copyOf(verdicts);
    }

    /** The path findings (F1..F7) known when the test failed; empty when none were found or known. */
    public List<Verdict> verdicts() {
        return verdicts;
    }
}
