package io.jperf.cm;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.Libc;
import io.jperf.ffi.LibcException;
import io.jperf.ffi.NativeBytes;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.RdmaLibraries;
import io.jperf.ffi.generated.rdma_cm_event;
import io.jperf.ffi.generated.rdma_conn_param;
import io.jperf.ffi.generated.rdma_event_channel;
import io.jperf.ffi.generated.rdma_h;
import io.jperf.verbs.Hints;
import io.jperf.verbs.NativeResource;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Optional;

/**
 * An RDMA CM event channel ({@code struct rdma_event_channel}): the file descriptor on which the
 * kernel reports the events of every {@link CmId} created on it. Root of the CM resource tree:
 * closing it closes its ids first (see {@link NativeResource}).
 *
 * <p>Nothing blocks forever: the fd is made non-blocking ({@code O_NONBLOCK}) at creation and
 * waited for with {@code poll(2)} and a timeout; {@code rdma_get_cm_event} is only called when the
 * fd is readable, and an {@code EAGAIN} just waits again. Each event is copied into a
 * {@link CmEvent} and acked at once, so no unacked event can make {@code rdma_destroy_id} wait.
 *
 * <p>Several ids share one channel; {@link #awaitFor} hands each id its own events and keeps the
 * others queued (in arrival order) until their id asks. Threading: the waiting methods are
 * {@code synchronized}; one thread should drive a channel and its ids; {@code close()} is safe from
 * any thread but must not race with a wait.
 */
public final class CmEventChannel extends NativeResource {

    private static final int EINTR = 4;
    private static final int EAGAIN = 11;

    private final MemorySegment handle;
    private final int fd;
    private final LinkedList<CmEvent> pending = new LinkedList<>();

    private CmEventChannel(MemorySegment handle, int fd) {
        super(null);
        this.handle = handle;
        this.fd = fd;
    }

    /**
     * Creates a channel with a non-blocking fd.
     *
     * @throws RdmaUnavailableException when the RDMA libraries are missing or the kernel has no RDMA
     *                                  CM ({@code ENODEV}: no RDMA support, no device, or rdma_ucm
     *                                  not loaded); the message says which and what to do
     * @throws RdmaException            for any other failure
     */
    public static CmEventChannel create() {
        if (!RdmaLibraries.isAvailable()) {
            Throwable cause = RdmaLibraries.unavailabilityCause();
            throw new RdmaUnavailableException(cause.getMessage(), cause);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment ch = ErrnoCalls.rdma_create_event_channel(state);
            if (ch.equals(MemorySegment.NULL)) {
                int errno = ErrnoCalls.errno(state);
                if (errno == CmErrors.ENODEV || errno == 38 /* ENOSYS */ || errno == 2 /* ENOENT */) {
                    throw new RdmaUnavailableException(RdmaException.of("rdma_create_event_channel", errno,
                            noCmHint(Path.of("/"))).getMessage());
                }
                throw RdmaException.of("rdma_create_event_channel", errno);
            }
            int fd = rdma_event_channel.fd(NativeMemory.ofLayout(ch, rdma_event_channel.layout()));
            try {
                Libc.setNonBlocking(fd);
            } catch (LibcException e) {
                rdma_h.rdma_destroy_event_channel(ch);
                throw RdmaException.of(e.call(), e.errno(), "the RDMA CM channel fd could not be made non-blocking");
            }
            return new CmEventChannel(ch, fd);
        }
    }

    /**
     * Why the RDMA CM is not usable here, for an {@code ENODEV} from
     * {@code rdma_create_event_channel}; {@code root} is {@code /} (a fixture tree in tests).
     */
    static String noCmHint(Path root) {
        if (!Files.isDirectory(root.resolve("sys/class/infiniband"))) {
            return Hints.noRdmaHint() + ". RDMA CM (-R) needs that too";
        }
        if (!Files.exists(root.resolve("dev/infiniband/rdma_cm"))) {
            return "RDMA devices exist but the RDMA CM device /dev/infiniband/rdma_cm does not: load the rdma_ucm"
                    + " module (`modprobe rdma_ucm`), or run without -R";
        }
        return Hints.noRdmaHint();
    }

    /** The {@code struct rdma_event_channel *}; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** The channel's file descriptor (non-blocking), e.g. for an external poller. */
    public int fd() {
        return fd;
    }

    /** Creates an id on this channel ({@code rdma_create_id}, {@code RDMA_PS_TCP}: reliable connections). */
    public CmId createId() {
        ensureOpen();
        return CmId.create(this);
    }

    /**
     * The next event for any id, queued ones first.
     *
     * @return the event, or empty if none arrived within {@code timeout}
     */
    public synchronized Optional<CmEvent> next(Duration timeout) {
        ensureOpen();
        if (!pending.isEmpty()) {
            return Optional.of(pending.removeFirst());
        }
        return read(System.nanoTime() + timeout.toNanos());
    }

    /**
     * The next event for the id (or, for a connect request, the listening id) at {@code key}; events
     * of other ids that arrive meanwhile are queued for them.
     *
     * @return the event, or empty if none arrived for that id within {@code timeout}
     */
    synchronized Optional<CmEvent> awaitFor(long key, Duration timeout) {
        ensureOpen();
        for (Iterator<CmEvent> it = pending.iterator(); it.hasNext(); ) {
            CmEvent e = it.next();
            if (e.routingKey() == key) {
                it.remove();
                return Optional.of(e);
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<CmEvent> e = read(deadline);
            if (e.isEmpty()) {
                return e;
            }
            if (e.get().routingKey() == key) {
                return e;
            }
            pending.addLast(e.get());
        }
    }

    /**
     * Waits up to {@code timeout} until an event for the id at {@code key} is queued, without taking it
     * (e.g. to learn whether a client asked to connect while also watching another listener).
     */
    synchronized boolean hasEventFor(long key, Duration timeout) {
        ensureOpen();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (CmEvent e : pending) {
                if (e.routingKey() == key) {
                    return true;
                }
            }
            Optional<CmEvent> e = read(deadline);
            if (e.isEmpty()) {
                return false;
            }
            pending.addLast(e.get());
        }
    }

    /** Drops the queued events of a destroyed id; returns the connect requests queued for it as a listener. */
    synchronized List<CmEvent> forget(long key) {
        List<CmEvent> requests = new ArrayList<>();
        for (Iterator<CmEvent> it = pending.iterator(); it.hasNext(); ) {
            CmEvent e = it.next();
            if (e.routingKey() == key) {
                it.remove();
                if (e.type() == CmEventType.CONNECT_REQUEST) {
                    requests.add(e);
                }
            }
        }
        return requests;
    }

    /** Reads one event, waiting until {@code deadline} ({@link System#nanoTime()}). */
    private Optional<CmEvent> read(long deadline) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            while (true) {
                long leftMs = Math.max(0, (deadline - System.nanoTime()) / 1_000_000L);
                int revents;
                try {
                    revents = Libc.pollIn(fd, leftMs);
                } catch (LibcException e) {
                    throw RdmaException.of(e.call() + " on the RDMA CM channel", e.errno());
                }
                if (revents == 0) {
                    return Optional.empty();
                }
                if ((revents & Libc.POLLNVAL) != 0) {
                    throw new IllegalStateException("the RDMA CM channel fd " + fd + " is not open (POLLNVAL)");
                }
                if (ErrnoCalls.rdma_get_cm_event(state, handle, out) == 0) {
                    return Optional.of(copyAndAck(out.get(ValueLayout.ADDRESS, 0)));
                }
                int errno = ErrnoCalls.errno(state);
                if (errno != EAGAIN && errno != EINTR) {
                    throw RdmaException.of("rdma_get_cm_event", errno);
                }
                if (System.nanoTime() - deadline >= 0) {
                    return Optional.empty();
                }
            }
        }
    }

    private static CmEvent copyAndAck(MemorySegment eventPtr) {
        MemorySegment ev = NativeMemory.ofLayout(eventPtr, rdma_cm_event.layout());
        try {
            return copy(ev);
        } finally {
            rdma_h.rdma_ack_cm_event(ev);
        }
    }

    /**
     * Copies a {@code struct rdma_cm_event} into a {@link CmEvent}: type, status, ids, and from
     * {@code param.conn} the private data (when its pointer is set) and, for a connect request, the
     * peer's responder resources and initiator depth.
     */
    static CmEvent copy(MemorySegment ev) {
        int raw = rdma_cm_event.event(ev);
        CmEventType type = CmEventType.fromNative(raw);
        MemorySegment conn = rdma_cm_event.param.conn(rdma_cm_event.param(ev));
        byte[] data = new byte[0];
        MemorySegment dataPtr = rdma_conn_param.private_data(conn);
        int len = Byte.toUnsignedInt(rdma_conn_param.private_data_len(conn));
        if (!dataPtr.equals(MemorySegment.NULL) && len > 0) {
            data = NativeBytes.toArray(NativeMemory.ofSize(dataPtr, len));
        }
        boolean request = type == CmEventType.CONNECT_REQUEST;
        return new CmEvent(type, raw, rdma_cm_event.status(ev), rdma_cm_event.id(ev).address(),
                rdma_cm_event.listen_id(ev).address(), data,
                request ? Byte.toUnsignedInt(rdma_conn_param.responder_resources(conn)) : 0,
                request ? Byte.toUnsignedInt(rdma_conn_param.initiator_depth(conn)) : 0);
    }

    /**
     * Rejects and destroys the ids of connect requests nobody accepted, then closes the fd. The ids
     * created on this channel were closed before (children first).
     */
    @Override
    protected void destroy() {
        List<CmEvent> left;
        synchronized (this) {
            left = new ArrayList<>(pending);
            pending.clear();
        }
        for (CmEvent e : left) {
            if (e.type() == CmEventType.CONNECT_REQUEST) {
                CmId.rejectAndDestroy(MemorySegment.ofAddress(e.id()));
            }
        }
        rdma_h.rdma_destroy_event_channel(handle);
    }

    @Override
    protected String describe() {
        return "CmEventChannel fd " + fd;
    }
}
