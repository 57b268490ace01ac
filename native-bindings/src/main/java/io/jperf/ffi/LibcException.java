package io.jperf.ffi;

import io.jperf.JperfException;

/**
 * A libc call failed with an errno. The message names the call, the errno (name, number and
 * {@code strerror} text) and, when one is known, what to check; {@link #call()} and
 * {@link #errno()} give the same facts to code.
 *
 * <p>Example: {@code recv(netlink route socket) failed: EAGAIN (11): Resource temporarily
 * unavailable: the kernel did not answer within 2000 ms}.
 */
public final class LibcException extends JperfException {

    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    /**
     * @param call   the failing call as a person would search for it, e.g. {@code "socket(AF_NETLINK)"}
     * @param errno  the captured errno, 0 if the failure did not set one
     * @param detail extra context or a hint, may be {@code null}
     */
    public LibcException(String call, int errno, String detail) {
        super(Category.CALL_FAILED, call + " failed: " + (errno == 0 ? "no errno" : Errno.format(errno))
                + (detail == null || detail.isEmpty() ? "" : ": " + detail));
        this.call = call;
        this.errno = errno;
    }

    /** @return the failing call, e.g. {@code "bind(AF_NETLINK)"} */
    public String call() {
        return call;
    }

    /** @return the captured errno, 0 if none */
    public int errno() {
        return errno;
    }
}
