package io.jperf.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A raw {@code AF_NETLINK} datagram socket: {@code socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, protocol)},
 * bound with a kernel-assigned port id, with a receive timeout ({@code SO_RCVTIMEO}) so no
 * call waits forever. It moves bytes only: building and parsing netlink messages is the
 * caller's job ({@code io.jperf.path} does it for rtnetlink).
 *
 * <pre>{@code
 * try (NetlinkSocket nl = NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, Duration.ofSeconds(2))) {
 *     nl.send(request);
 *     byte[] datagram = nl.receive();   // one datagram; a dump spans several
 * }
 * }</pre>
 *
 * <p>Extended acks ({@code NETLINK_EXT_ACK}) are switched on when the kernel supports them, so
 * {@code NLMSG_ERROR} replies may carry the kernel's own error text.
 *
 * <p>Lifecycle: open, any number of send/receive, {@link #close()} (idempotent). The socket
 * lives in the network namespace of the thread that opened it, for its whole life.
 * Threading: every method is {@code synchronized}; one request/reply exchange at a time is the
 * caller's responsibility (interleaved requests from two threads would mix their replies).
 */
public final class NetlinkSocket implements AutoCloseable {

    /** {@code NETLINK_ROUTE}: rtnetlink (routes, rules, links, addresses). */
    public static final int NETLINK_ROUTE = 0;
    /** Receive buffer size; a larger datagram is reported as truncated, never silently cut. */
    public static final int RECEIVE_BUFFER = 64 * 1024;

    /** {@code struct sockaddr_nl}: family u16, pad u16, pid u32, groups u32. */
    private static final int SOCKADDR_NL_SIZE = 12;

    private final int fd;
    private final int protocol;
    private final Duration timeout;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment callState = Libc.newCallState(arena);
    private final MemorySegment kernelAddress = arena.allocate(SOCKADDR_NL_SIZE, 4);
    private final MemorySegment receiveBuffer = arena.allocate(RECEIVE_BUFFER, 8);
    private boolean closed;

    private NetlinkSocket(int fd, int protocol, Duration timeout) {
        this.fd = fd;
        this.protocol = protocol;
        this.timeout = timeout;
        kernelAddress.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_NETLINK); // pid 0 = the kernel
    }

    /**
     * Opens and binds a netlink socket in the calling thread's network namespace.
     *
     * @param protocol       the netlink family, e.g. {@link #NETLINK_ROUTE}
     * @param receiveTimeout how long {@link #receive()} waits for a datagram (at least 1 ms)
     * @throws LibcException naming {@code socket}, {@code setsockopt} or {@code bind} and the errno
     */
    public static NetlinkSocket open(int protocol, Duration receiveTimeout) throws LibcException {
        if (receiveTimeout.isNegative() || receiveTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("receive timeout must be at least 1 ms, not " + receiveTimeout);
        }
        try (Arena temp = Arena.ofConfined()) {
            MemorySegment state = Libc.newCallState(temp);
            int fd = Libc.socket(state, Libc.AF_NETLINK, Libc.SOCK_RAW | Libc.SOCK_CLOEXEC, protocol);
            if (fd < 0) {
                throw new LibcException("socket(AF_NETLINK, SOCK_RAW, " + protocol + ")", Libc.errno(state),
                        "is netlink available to this process (seccomp, container policy)?");
            }
            try {
                MemorySegment tv = temp.allocate(16, 8);          // struct timeval {long sec; long usec}
                tv.set(ValueLayout.JAVA_LONG, 0, receiveTimeout.toSeconds());
                tv.set(ValueLayout.JAVA_LONG, 8, receiveTimeout.toMillisPart() * 1000L);
                for (int option : new int[] {Libc.SO_RCVTIMEO, Libc.SO_SNDTIMEO}) {
                    if (Libc.setsockopt(state, fd, Libc.SOL_SOCKET, option, tv, 16) != 0) {
                        throw new LibcException("setsockopt(SOL_SOCKET, "
                                + (option == Libc.SO_RCVTIMEO ? "SO_RCVTIMEO" : "SO_SNDTIMEO") + ")",
                                Libc.errno(state), null);
                    }
                }
                MemorySegment one = temp.allocateFrom(ValueLayout.JAVA_INT, 1);
                Libc.setsockopt(state, fd, Libc.SOL_NETLINK, Libc.NETLINK_EXT_ACK, one, 4); // best effort
                MemorySegment local = temp.allocate(SOCKADDR_NL_SIZE, 4);
                local.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_NETLINK); // pid 0: kernel assigns
                if (Libc.bind(state, fd, local, SOCKADDR_NL_SIZE) != 0) {
                    throw new LibcException("bind(AF_NETLINK)", Libc.errno(state), null);
                }
                return new NetlinkSocket(fd, protocol, receiveTimeout);
            } catch (RuntimeException | Error e) {
                Libc.close(state, fd);
                throw e;
            }
        }
    }

    /**
     * Opens a netlink socket inside the network namespace {@code namespaceFile} (e.g.
     * {@code /run/netns/NAME}, as made by {@code ip netns add}), without moving any JVM thread
     * that outlives the call: a fresh platform thread enters the namespace with {@code setns},
     * opens the socket and ends. The socket then answers for that namespace from any thread.
     *
     * @throws LibcException if the namespace cannot be entered (EPERM without CAP_SYS_ADMIN,
     *     ENOENT for a missing file) or the socket cannot be opened
     */
    public static NetlinkSocket openInNamespace(Path namespaceFile, int protocol, Duration receiveTimeout)
            throws LibcException {
        CompletableFuture<NetlinkSocket> result = new CompletableFuture<>();
        Thread thread = Thread.ofPlatform().name("jperf-netns-open").unstarted(() -> {
            try {
                Libc.enterNetworkNamespace(namespaceFile);
                result.complete(open(protocol, receiveTimeout));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        thread.start();
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LibcException("setns(" + namespaceFile + ")", Libc.EINTR, "interrupted while waiting");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LibcException le) {
                throw le;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new AssertionError(cause);
        }
    }

    /** @return the netlink family this socket was opened for */
    public int protocol() {
        return protocol;
    }

    /** @return the receive timeout given to {@link #open} */
    public Duration receiveTimeout() {
        return timeout;
    }

    /**
     * Sends one datagram (one or more complete netlink messages) to the kernel.
     *
     * @throws LibcException naming {@code sendto} and the errno
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized void send(byte[] datagram) throws LibcException {
        ensureOpen();
        try (Arena temp = Arena.ofConfined()) {
            MemorySegment buf = temp.allocate(Math.max(1, datagram.length), 8);
            MemorySegment.copy(datagram, 0, buf, ValueLayout.JAVA_BYTE, 0, datagram.length);
            while (true) {
                long sent = Libc.sendto(callState, fd, buf, datagram.length, 0, kernelAddress, SOCKADDR_NL_SIZE);
                if (sent == datagram.length) {
                    return;
                }
                int errno = Libc.errno(callState);
                if (sent < 0 && errno == Libc.EINTR) {
                    continue;
                }
                throw new LibcException("sendto(netlink protocol " + protocol + ", " + datagram.length + " bytes)",
                        sent < 0 ? errno : 0, sent < 0 ? null : "short send of " + sent + " bytes");
            }
        }
    }

    /**
     * Receives one datagram from the kernel, waiting at most the receive timeout.
     *
     * @return the datagram's bytes (never empty)
     * @throws LibcException naming {@code recv}: EAGAIN when the kernel did not answer in time,
     *     EMSGSIZE when the datagram exceeded {@link #RECEIVE_BUFFER}
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized byte[] receive() throws LibcException {
        ensureOpen();
        while (true) {
            long n = Libc.recv(callState, fd, receiveBuffer, RECEIVE_BUFFER, Libc.MSG_TRUNC);
            if (n < 0) {
                int errno = Libc.errno(callState);
                if (errno == Libc.EINTR) {
                    continue;
                }
                throw new LibcException("recv(netlink protocol " + protocol + ")", errno,
                        errno == 11 ? "the kernel did not answer within " + timeout.toMillis() + " ms" : null);
            }
            if (n > RECEIVE_BUFFER) {
                throw new LibcException("recv(netlink protocol " + protocol + ")", 90,
                        "datagram of " + n + " bytes exceeds the " + RECEIVE_BUFFER + "-byte buffer");
            }
            if (n == 0) {
                throw new LibcException("recv(netlink protocol " + protocol + ")", 0, "empty datagram");
            }
            return NativeBytes.toArray(receiveBuffer.asSlice(0, n));
        }
    }

    /** Closes the socket and frees its buffers; later calls are no-ops. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Libc.close(callState, fd);
        arena.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("netlink socket (protocol " + protocol + ") is closed");
        }
    }
}
