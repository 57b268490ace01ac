package io.jperf.path;

import io.jperf.JperfException;
import io.jperf.ffi.Errno;

import java.util.Optional;

/**
 * The kernel refused an rtnetlink request ({@code NLMSG_ERROR} with a non-zero errno), or the
 * exchange broke (overrun, interrupted dump, malformed reply). The message names the request, the
 * errno with its meaning, and the kernel's own extended-ack text when it sent one, e.g.
 * {@code RTM_GETROUTE to 203.0.113.9 from 10.0.0.1 failed: ENETUNREACH (101): Network is unreachable}.
 */
public final class RtnetlinkException extends JperfException {

    private static final long serialVersionUID = 1L;

    private final String request;
    private final int errno;
    private final String kernelMessage;

    RtnetlinkException(String request, int errno, Optional<String> kernelMessage) {
        super(Category.CALL_FAILED, request + " failed: " + Errno.format(errno) + kernelMessage.map(m -> " (kernel: " + m + ")").orElse(""));
        this.request = request;
        this.errno = errno;
        this.kernelMessage = kernelMessage.orElse(null);
    }

    /**
     * The refusal a kernel would send, for views of the network that are not the kernel (scripted fakes, replays),
     * so their callers meet the same exception type as with {@link Rtnetlink}.
     *
     * @param errno the positive errno, e.g. 101 (ENETUNREACH) for a route lookup with no matching table entry
     */
    public static RtnetlinkException refused(String request, int errno) {
        return new RtnetlinkException(request, errno, Optional.empty());
    }

    RtnetlinkException(String request, String problem, Throwable cause) {
        super(Category.CALL_FAILED, request + " failed: " + problem, cause);
        this.request = request;
        this.errno = 0;
        this.kernelMessage = null;
    }

    /** @return the request in words, e.g. {@code "RTM_GETRULE dump (IPv4)"} */
    public String request() {
        return request;
    }

    /** @return the kernel's errno (positive), 0 when the failure was not an errno reply */
    public int errno() {
        return errno;
    }

    /** @return the kernel's extended-ack message, if it sent one */
    public Optional<String> kernelMessage() {
        return Optional.ofNullable(kernelMessage);
    }
}
