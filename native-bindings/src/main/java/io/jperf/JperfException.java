package io.jperf;

/**
 * The root of every failure jperf reports: a test that failed, input (options or a peer's request)
 * that is not valid, a host without usable RDMA, or a failed verbs, RDMA CM or system call. Each
 * failure says which of these it is ({@link #category()}); the command line maps that category, and only
 * that, to its exit code, and an embedding application can catch this one type.
 *
 * <p>The message is one a person can act on: it names the call or the value, why it failed and
 * what to check. Subclasses carry the details (the call and errno, the CM event, the path
 * findings) as accessors. Immutable; safe to share between threads.
 */
public abstract class JperfException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What kind of failure this is; the command line's exit code follows from it. */
    public enum Category {
        /** The test ran but failed: completion errors, a peer that went away, refused or did not match. */
        TEST_FAILED,
        /** Options or a peer's request that are not valid (a range, a combination, a missing value). */
        INVALID_INPUT,
        /** No usable RDMA here: libraries missing, a kernel without RDMA, no such device or port. */
        NO_RDMA,
        /** A verbs, RDMA CM or system call failed; the message names the call, its errno and a hint. */
        CALL_FAILED
    }

    private final Category category;

    protected JperfException(Category category, String message) {
        this(category, message, null);
    }

    protected JperfException(Category category, String message, Throwable cause) {
        super(message, cause);
        this.category = java.util.Objects.requireNonNull(category, "category");
    }

    /** What kind of failure this is. */
    public final Category category() {
        return category;
    }
}
