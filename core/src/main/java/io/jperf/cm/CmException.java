package io.jperf.cm;

import io.jperf.JperfException;
import io.jperf.ffi.Errno;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * An RDMA CM step failed: a call returned an error, an error event arrived (ADDR_ERROR,
 * ROUTE_ERROR, UNREACHABLE, REJECTED, CONNECT_ERROR, ADDR_CHANGE, DEVICE_REMOVAL, ...), or no
 * event arrived within the timeout. The message names the call, the source and destination,
 * what went wrong (event and status, or errno), the tries, the kernel's route for the pair and
 * a hint, e.g.
 *
 * <pre>
 * rdma_resolve_addr 10.30.0.11 -> 10.30.0.12 failed: RDMA_CM_EVENT_ADDR_ERROR (status -110 ETIMEDOUT)
 * after 10 tries of 2 s; the kernel routes 10.30.0.12 from 10.30.0.11 via r0 (table main, rule 32766
 * 'from all lookup main'), but the source address 10.30.0.11 is on r1: ... add a rule for the source
 * (`ip rule add from 10.30.0.11 table 103`) ...
 * </pre>
 *
 * <p>The same facts are available to code through the accessors.
 */
public final class CmException extends JperfException {

    private static final long serialVersionUID = 1L;

    /** How the step failed. */
    public enum Kind {
        /** The call itself returned -1; {@link #errno()} says why. */
        CALL_FAILED,
        /** An error event arrived; {@link #event()} and {@link #status()} say which. */
        ERROR_EVENT,
        /** An event arrived that does not belong to this step (e.g. DISCONNECTED while connecting). */
        UNEXPECTED_EVENT,
        /** No event within the timeout. */
        TIMEOUT
    }

    private final String call;
    private final Kind kind;
    private final transient Optional<CmEvent> event;
    private final int errno;
    private final transient InetSocketAddress source;
    private final transient InetSocketAddress destination;
    private final int tries;
    private final transient RouteReport route;

    private CmException(String message, String call, Kind kind, CmEvent event, int errno, InetSocketAddress source,
                        InetSocketAddress destination, int tries, RouteReport route) {
        super(Category.CALL_FAILED, message);
        this.call = call;
        this.kind = kind;
        this.event = Optional.ofNullable(event);
        this.errno = errno;
        this.source = source;
        this.destination = destination;
        this.tries = tries;
        this.route = route;
    }

    /**
     * Builds the exception and its message.
     *
     * @param call        the step, e.g. {@code rdma_resolve_addr}
     * @param kind        how it failed
     * @param event       the event that reported it (ERROR_EVENT, UNEXPECTED_EVENT), else null
     * @param errno       the errno of a failed call, else 0
     * @param source      the source address (bound or resolved), null if none
     * @param destination the destination (the peer; for a server the client), null if none
     * @param tries       how many times the step was tried (1 if not retried)
     * @param perTry      the timeout of one try, or the whole wait for TIMEOUT
     * @param route       the kernel's route for the pair, null if not looked up
     */
    static CmException of(String call, Kind kind, CmEvent event, int errno, InetSocketAddress source,
                          InetSocketAddress destination, int tries, Duration perTry, RouteReport route) {
        StringBuilder sb = new StringBuilder(call);
        if (source != null || destination != null) {
            sb.append(' ').append(SockAddrs.text(source)).append(" -> ").append(SockAddrs.text(destination));
        }
        sb.append(" failed: ");
        int status;
        CmEventType type = event == null ? null : event.type();
        switch (kind) {
            case CALL_FAILED -> {
                sb.append(errno == 0 ? "no errno" : Errno.format(errno));
                status = -errno;
            }
            case TIMEOUT -> {
                sb.append("no RDMA CM event within ").append(CmErrors.duration(perTry));
                status = 0;
            }
            default -> {
                sb.append(kind == Kind.UNEXPECTED_EVENT ? "unexpected " : "").append(event.describe());
                status = event.status();
                if (event.type() == CmEventType.REJECTED) {
                    String data = privateDataText(event.privateData());
                    if (!data.isEmpty()) {
                        sb.append(", private data ").append(data);
                    }
                }
            }
        }
        if (tries > 1 && kind != Kind.TIMEOUT) {
            sb.append(" after ").append(tries).append(" tries of ").append(CmErrors.duration(perTry));
        }
        if (route != null) {
            sb.append("; ").append(route);
        }
        String hint = route != null && route.problem().isPresent() ? "" : CmErrors.hint(call, type, status);
        if (!hint.isEmpty()) {
            sb.append(". Hint: ").append(hint);
        }
        return new CmException(sb.toString(), call, kind, event, errno, source, destination, tries, route);
    }

    /** Up to 16 bytes as hex, without trailing zero padding; empty when all zero. */
    static String privateDataText(byte[] data) {
        int end = data.length;
        while (end > 0 && data[end - 1] == 0) {
            end--;
        }
        if (end == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(end, 16); i++) {
            sb.append(String.format("%02x", data[i] & 0xff));
        }
        if (end > 16) {
            sb.append("... (").append(end).append(" bytes)");
        }
        return sb.toString();
    }

    /** @return the failing step, e.g. {@code rdma_resolve_addr} */
    public String call() {
        return call;
    }

    public Kind kind() {
        return kind;
    }

    /** @return the event that reported the failure, empty for CALL_FAILED and TIMEOUT */
    public Optional<CmEvent> event() {
        return event;
    }

    /** @return the event's status, or the negated errno of a failed call, 0 on timeout */
    public int status() {
        return event.map(CmEvent::status).orElse(-errno);
    }

    /** @return the errno of a failed call, 0 otherwise */
    public int errno() {
        return errno;
    }

    /** @return the peer's private data of a REJECTED event (zero-padded by the transport), else empty */
    public byte[] rejectPrivateData() {
        return event.filter(e -> e.type() == CmEventType.REJECTED).map(CmEvent::privateData).orElse(new byte[0]);
    }

    public Optional<InetSocketAddress> source() {
        return Optional.ofNullable(source);
    }

    public Optional<InetSocketAddress> destination() {
        return Optional.ofNullable(destination);
    }

    /** @return how many times the step was tried */
    public int tries() {
        return tries;
    }

    /** @return the kernel's route for the pair, when it was looked up */
    public Optional<RouteReport> route() {
        return Optional.ofNullable(route);
    }
}
