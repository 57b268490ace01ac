package io.jperf.verbs;

import io.jperf.JperfException;
import io.jperf.ffi.Errno;

import java.util.Optional;

/**
 * A failed verbs or RDMA CM call: names the call, its errno with name and meaning, and a hint
 * a person can act on. The message reads
 * {@code ibv_reg_mr failed: errno 12 ENOMEM (Cannot allocate memory). Hint: ...}.
 */
public final class RdmaException extends JperfException {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;
    private final String hint;

    public RdmaException(String call, int errno, String hint) {
        super(Category.CALL_FAILED, format(call, errno, hint));
        this.call = call;
        this.errno = errno;
        this.hint = hint;
    }

    /** An exception for {@code call} failing with {@code errno}, with the hint {@link Hints} gives. */
    public static RdmaException of(String call, int errno) {
        return new RdmaException(call, errno, Hints.forCall(call, errno));
    }

    /** An exception for {@code call} failing with {@code errno}, with a hint from the caller's context. */
    public static RdmaException of(String call, int errno, String hint) {
        return new RdmaException(call, errno, hint);
    }

    private static String format(String call, int errno, String hint) {
        StringBuilder sb = new StringBuilder(call).append(" failed: ");
        if (errno != 0) {
            sb.append("errno ").append(errno).append(' ').append(Errno.name(errno))
                    .append(" (").append(Errno.describe(errno)).append(')');
        } else {
            sb.append("no errno");
        }
        sb.append('.');
        if (hint != null && !hint.isEmpty()) {
            sb.append(" Hint: ").append(hint);
        }
        return sb.toString();
    }

    public String call() {
        return call;
    }

    public int errno() {
        return errno;
    }

    public String errnoName() {
        return Errno.name(errno);
    }

    public Optional<String> hint() {
        return Optional.ofNullable(hint).filter(h -> !h.isEmpty());
    }
}
