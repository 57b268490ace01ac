package io.jperf.wire;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * perftest's out-of-band control exchange, byte-compatible with perftest 6.06 to 6.29 over either of its
 * transports: TCP (the default) or, with {@code -R}, an RDMA CM control QP ({@link ControlTransport}).
 *
 * <p>Every exchange sends one fixed-size message each way: the {@link Role#CLIENT} writes and then reads,
 * the {@link Role#SERVER} reads and then writes. Reads block for at most the read timeout
 * ({@link #setReadTimeout}); a peer that closes, stalls or sends bytes that are not perftest's format
 * raises a {@link ProtocolException} naming the step. Key messages travel as text over TCP and as the
 * binary {@code pingpong_dest} of the peer's version over RDMA CM ({@link KeyFormat}). Which exchanges
 * happen in which order is decided by {@link PerftestHandshake}, not here.
 *
 * <p>Lifecycle: obtained connected from {@link #connect}, {@link ControlListener#accept} or {@link #over};
 * owns its transport; {@link #close} is idempotent. Not thread-safe: one thread drives the exchange.
 */
public final class ControlChannel implements AutoCloseable {

    /** Length of the version message. */
    public static final int VERSION_SIZE = 16;
    /** The receive a jperf end posts for each message on an RDMA CM control QP (a jperf peer may fill it). */
    public static final int JPERF_CM_RECEIVE = 4096;
    /** The receive perftest 6.28 and later post on their RDMA CM control QP: the negotiation struct. */
    static final int PERFTEST_628_CM_RECEIVE = ParameterNegotiation.SIZE;
    /** The bytes each side writes after the final key exchange over TCP: {@code "done"} and its NUL. */
    static final byte[] DONE = "done\0".getBytes(StandardCharsets.US_ASCII);

    private static final Duration RETRY_PAUSE = Duration.ofMillis(100);
    private static final Duration DONE_DRAIN_TIMEOUT = Duration.ofMillis(500);
    /** How long a server waits for the last 8 bytes of a 320-byte negotiation before naming a 312-byte peer. */
    private static final Duration SHORT_NEGOTIATION_WAIT = Duration.ofSeconds(2);

    private final ControlTransport transport;
    private final Role role;
    private Duration readTimeout;
    private PerftestVersion remoteVersion;
    private KeyFormat keyFormat;
    private int keyGidIndex = -1;

    private ControlChannel(ControlTransport transport, Role role, Duration readTimeout) throws IOException {
        this.transport = transport;
        this.role = role;
        this.keyFormat = transport.messageBased() ? KeyFormat.DEST_56 : KeyFormat.TEXT;
        setReadTimeout(readTimeout);
    }

    ControlChannel(Socket socket, Role role, Duration readTimeout) throws IOException {
        this(new TcpTransport(socket, readTimeout), role, readTimeout);
    }

    /**
     * A channel over a connected transport, e.g. perftest's RDMA CM control QP ({@code -R}).
     *
     * @param role        which side this is: the client writes first in every exchange
     * @param readTimeout the initial read timeout
     */
    public static ControlChannel over(ControlTransport transport, Role role, Duration readTimeout) throws IOException {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(role, "role");
        requirePositive(readTimeout);
        return new ControlChannel(transport, role, readTimeout);
    }

    /**
     * Connects to a server, retrying refused or unreachable attempts until {@code timeout} has passed (the
     * server may not be listening yet). The read timeout starts at {@code timeout} too.
     *
     * @param bindAddress local address to bind ({@code --bind_source_ip}), or null for any
     * @throws ProtocolException when no connection could be made in time, with the last failure as cause
     * @throws IOException when the host cannot be resolved or the bind address is not local
     */
    public static ControlChannel connect(String host, int port, InetAddress bindAddress, Duration timeout)
            throws IOException {
        Objects.requireNonNull(host, "host");
        requirePositive(timeout);
        InetSocketAddress target = new InetSocketAddress(host, port);
        if (target.isUnresolved()) {
            throw new UnknownHostException("cannot resolve server host '" + host + "'");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last;
        while (true) {
            Socket s = new Socket();
            try {
                if (bindAddress != null) {
                    s.bind(new InetSocketAddress(bindAddress, 0));
                }
                long remainingMs = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                s.connect(target, (int) Math.min(Integer.MAX_VALUE, remainingMs));
                return new ControlChannel(s, Role.CLIENT, timeout);
            } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                closeQuietly(s);
                last = e;
            } catch (IOException e) {
                closeQuietly(s);
                throw e;
            }
            if (System.nanoTime() + RETRY_PAUSE.toNanos() >= deadline) {
                throw new ProtocolException("could not connect to " + host + ":" + port + " within "
                        + seconds(timeout) + " (" + last.getMessage() + "); is the server side running"
                        + " and is TCP port " + port + " reachable?", last);
            }
            sleep(RETRY_PAUSE);
        }
    }

    /**
     * Listens on {@code port}, accepts one client within {@code timeout}, and stops listening. The read
     * timeout starts at {@code timeout} too.
     *
     * @param bindAddress local address to listen on, or null for all
     */
    public static ControlChannel accept(int port, InetAddress bindAddress, Duration timeout) throws IOException {
        try (ControlListener listener = listen(port, bindAddress)) {
            return listener.accept(timeout);
        }
    }

    /** Starts listening without accepting yet, e.g. to learn the port when {@code port} is 0. */
    public static ControlListener listen(int port, InetAddress bindAddress) throws IOException {
        return new ControlListener(port, bindAddress);
    }

    /** Which side this is. */
    public Role role() {
        return role;
    }

    /** Whether this channel runs over perftest's RDMA CM control QP ({@code -R}) rather than TCP. */
    public boolean overRdmaCm() {
        return transport.messageBased();
    }

    /** The transport's name for messages: "TCP" or "RDMA CM". */
    public String transportName() {
        return transport.name();
    }

    /** This end's address of the connection (on a server: the address the client reached). */
    public java.net.InetAddress localAddress() {
        return transport.localAddress();
    }

    /** The peer's address of the connection. */
    public java.net.InetAddress remoteAddress() {
        return transport.remoteAddress();
    }

    /** The peer's version once {@link #exchangeVersion} has run, else null. */
    public PerftestVersion remoteVersion() {
        return remoteVersion;
    }

    /** How key messages travel: text over TCP; over RDMA CM the peer version's binary layout. */
    public KeyFormat keyFormat() {
        return keyFormat;
    }

    /** The GID index this end reports in binary key messages (perftest prints it; -1 = none). */
    public void keyGidIndex(int gidIndex) {
        this.keyGidIndex = gidIndex;
    }

    /** The current read timeout. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /**
     * Sets how long each read may wait for the peer, e.g. longer while the peer runs its measurement.
     *
     * @throws IOException if the connection is closed
     */
    public void setReadTimeout(Duration timeout) throws IOException {
        requirePositive(timeout);
        transport.setReadTimeout(timeout);
        this.readTimeout = timeout;
    }

    /**
     * Bounds the whole exchange from here on, not each read: every later read waits at most the
     * read timeout or the time left until {@code nanoTime} ({@link System#nanoTime()} scale),
     * whichever is shorter, and once it has passed a read fails at once. A server uses it so that a
     * peer sending one byte just before each read timeout cannot hold it longer than the deadline.
     */
    public void deadline(long nanoTime) {
        transport.deadline(nanoTime);
    }

    /**
     * Exchanges the 16-byte NUL-padded version strings. Over RDMA CM the peer's version then decides the
     * key layout and the largest message it can receive.
     *
     * @param ours at most 15 ASCII characters, e.g. {@link PerftestVersion#ADVERTISED}
     * @return the peer's version
     * @throws ProtocolException when the peer's bytes are not a version or it is older than 5.70
     */
    public PerftestVersion exchangeVersion(PerftestVersion ours) throws IOException {
        byte[] text = ours.text().getBytes(StandardCharsets.US_ASCII);
        if (text.length >= VERSION_SIZE) {
            throw new IllegalArgumentException("version '" + ours + "' is longer than 15 characters");
        }
        byte[] theirs = exchange(ByteBuffer.allocate(VERSION_SIZE).put(text).array(), "version exchange");
        int len = 0;
        while (len < VERSION_SIZE && theirs[len] != 0) {
            int c = theirs[len] & 0xff;
            if (c < 0x20 || c >= 0x7f) {
                throw new ProtocolException("the peer's version message is not text (byte 0x"
                        + Integer.toHexString(c) + " at offset " + len + "); is the peer perftest or jperf?");
            }
            len++;
        }
        PerftestVersion remote = PerftestVersion.parse(new String(theirs, 0, len, StandardCharsets.US_ASCII));
        if (!remote.isSupported()) {
            throw new ProtocolException("the peer reports perftest version '" + remote + "'; versions older"
                    + " than 5.70 are not compatible (perftest refuses them too): upgrade the peer");
        }
        remoteVersion = remote;
        if (transport.messageBased()) {
            keyFormat = remote.isJperf() ? KeyFormat.DEST_56 : KeyFormat.forRdmaCmPeer(remote);
            transport.limitMessagesTo(remote.isJperf() ? JPERF_CM_RECEIVE
                    : remote.atLeast(ParameterNegotiation.UNCONDITIONAL_VERSION) ? PERFTEST_628_CM_RECEIVE
                    : ControlTransport.SMALLEST_PEER_RECEIVE);
        }
        return remote;
    }

    /**
     * Exchanges page size and cache line size (each a 4-byte big-endian int, one exchange each).
     *
     * @return the larger of each pair, which both sides then use
     */
    public PageAndCacheLine exchangePageAndCacheLine(int pageSize, int cacheLineSize) throws IOException {
        int remotePage = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(pageSize).array(),
                "page size exchange")).getInt();
        int remoteLine = ByteBuffer.wrap(exchange(ByteBuffer.allocate(4).putInt(cacheLineSize).array(),
                "cache line size exchange")).getInt();
        if (remotePage <= 0 || remoteLine <= 0) {
            throw new ProtocolException("the peer sent page size " + remotePage + " and cache line size "
                    + remoteLine + "; both must be positive");
        }
        return new PageAndCacheLine(Math.max(pageSize, remotePage), Math.max(cacheLineSize, remoteLine));
    }

    /**
     * Exchanges the path MTU as an {@code enum ibv_mtu} digit and NUL (2 bytes, {@code "5\0"} = 4096).
     *
     * @param ibvMtu 1 (256) .. 5 (4096)
     * @return the smaller of the two, which both sides then use
     */
    public int exchangeMtu(int ibvMtu) throws IOException {
        if (ibvMtu < 1 || ibvMtu > 5) {
            throw new IllegalArgumentException("ibv_mtu " + ibvMtu + " is outside 1..5");
        }
        byte[] theirs = exchange(new byte[] {(byte) ('0' + ibvMtu), 0}, "MTU exchange");
        int remote = theirs[0] - '0';
        if (remote < 1 || remote > 5 || theirs[1] != 0) {
            throw new ProtocolException(String.format(Locale.ROOT, "the peer's MTU message is 0x%02x 0x%02x;"
                    + " expected a digit 1..5 (256..4096 bytes) and a NUL", theirs[0] & 0xff, theirs[1] & 0xff));
        }
        return Math.min(ibvMtu, remote);
    }

    /**
     * Exchanges perftest 6.28's parameter negotiation ({@link ParameterNegotiation}, 320 bytes). A peer
     * built without mlx5dv sends 312 bytes: the server side notices the missing 8 bytes within a few
     * seconds and says so.
     *
     * @return the peer's parameters
     */
    public ParameterNegotiation exchangeNegotiation(ParameterNegotiation ours) throws IOException {
        String step = "perftest 6.28 parameter negotiation";
        byte[] mine = ours.encode();
        byte[] theirs;
        if (role == Role.CLIENT) {
            transport.write(mine, step);
            theirs = readNegotiation(step);
        } else {
            theirs = readNegotiation(step);
            transport.write(mine, step);
        }
        return ParameterNegotiation.decode(theirs);
    }

    private byte[] readNegotiation(String step) throws IOException {
        int shortSize = ParameterNegotiation.SIZE_WITHOUT_MLX5DV;
        if (transport.messageBased()) {
            try {
                return transport.read(ParameterNegotiation.SIZE, step);
            } catch (ProtocolException e) {
                throw shortNegotiation(e.getMessage().contains(shortSize + "-byte") ? null : e);
            }
        }
        byte[] head = transport.read(shortSize, step);
        Duration normal = readTimeout;
        try {
            transport.setReadTimeout(role == Role.SERVER ? SHORT_NEGOTIATION_WAIT : normal);
            byte[] tail = transport.read(ParameterNegotiation.SIZE - shortSize, step);
            return ByteBuffer.allocate(ParameterNegotiation.SIZE).put(head).put(tail).array();
        } catch (ProtocolException e) {
            throw shortNegotiation(e);
        } finally {
            transport.setReadTimeout(normal);
        }
    }

    private static ProtocolException shortNegotiation(ProtocolException cause) {
        if (cause != null && !cause.getMessage().contains("timed out")) {
            return cause;
        }
        return new ProtocolException("the peer is perftest 6.28 built without mlx5dv: its parameter negotiation"
                + " has " + ParameterNegotiation.SIZE_WITHOUT_MLX5DV + " bytes, jperf speaks the "
                + ParameterNegotiation.SIZE + "-byte form of builds with mlx5dv; use perftest 6.29 (or a 6.28 built"
                + " against rdma-core's mlx5dv headers) at the peer", cause);
    }

    /**
     * Exchanges one QP's key message in this channel's {@link #keyFormat}. Over TCP the peer's message
     * must have the same length as ours (both with a GID or both without).
     */
    public KeyMessage exchangeKeys(KeyMessage ours) throws IOException {
        return exchangeKeys(ours, "key exchange");
    }

    /** One more key message exchange of the same local message: both sides are past the previous step. */
    public KeyMessage barrier(KeyMessage ours) throws IOException {
        return exchangeKeys(ours, "barrier");
    }

    /**
     * perftest's synchronisation around the RDMA CM connection of the test QPs ({@code -R}): one key
     * exchange of a zeroed {@code pingpong_dest}, whose content both sides ignore.
     */
    public void sync(String step) throws IOException {
        if (!keyFormat.binary()) {
            throw new IllegalStateException("the RDMA CM synchronisation runs over the RDMA CM control QP only");
        }
        exchange(new byte[keyFormat.size(null)], step);
    }

    KeyMessage exchangeKeys(KeyMessage ours, String step) throws IOException {
        int size = keyFormat.size(ours);
        return keyFormat.decode(exchange(keyFormat.encode(ours, keyGidIndex), step + " (" + size
                + "-byte " + (keyFormat.binary() ? "pingpong_dest" : "key message; check both sides agree on"
                + " -x/--gid-index") + ")"));
    }

    /**
     * Exchanges bandwidth reports: size, iterations (8-byte big-endian integers), then peak, average and
     * message rate (big-endian IEEE doubles), each field its own exchange as perftest does.
     */
    public BwReport exchangeBwReport(BwReport ours) throws IOException {
        long size = exchangeLong(ours.size(), "bandwidth report (size)");
        long iters = exchangeLong(ours.iterations(), "bandwidth report (iterations)");
        double peak = Double.longBitsToDouble(exchangeLong(Double.doubleToRawLongBits(ours.peak()),
                "bandwidth report (peak)"));
        double avg = Double.longBitsToDouble(exchangeLong(Double.doubleToRawLongBits(ours.average()),
                "bandwidth report (average)"));
        double rate = Double.longBitsToDouble(exchangeLong(Double.doubleToRawLongBits(ours.messageRate()),
                "bandwidth report (message rate)"));
        return new BwReport(size, iters, peak, avg, rate);
    }

    /**
     * perftest's closing sequence: a final key exchange; over TCP each side then writes {@code "done\0"}
     * and closes (jperf reads the peer's {@code "done"} briefly first so that unread bytes do not turn the
     * close into a reset; perftest 6.29 sends none). Over RDMA CM there is no {@code "done"}.
     */
    public void closeHandshake(KeyMessage ours) throws IOException {
        exchangeKeys(ours, "closing handshake");
        if (transport.messageBased()) {
            close();
            return;
        }
        transport.write(DONE, "closing handshake");
        try {
            transport.setReadTimeout(DONE_DRAIN_TIMEOUT);
            transport.read(DONE.length, "closing handshake");
        } catch (IOException ignored) {
            // The peer may already have closed; its "done" is a courtesy, not part of the result.
        } finally {
            close();
        }
    }

    /** Closes the connection. Idempotent. */
    @Override
    public void close() throws IOException {
        transport.close();
    }

    /** Breaks the exchange off so that the peer stops at once too ({@link ControlTransport#abandon}), and closes. */
    public void abandon() throws IOException {
        transport.abandon();
    }

    private long exchangeLong(long value, String step) throws IOException {
        return ByteBuffer.wrap(exchange(ByteBuffer.allocate(8).putLong(value).array(), step)).getLong();
    }

    /**
     * Exchanges messages whose lengths may differ (jperf-only; perftest never sends these): a 4-byte
     * big-endian length, then the bytes; client first, as every exchange.
     *
     * @param maxLength the longest message accepted from the peer
     */
    public byte[] exchangeVariable(byte[] ours, int maxLength, String step) throws IOException {
        if (role == Role.CLIENT) {
            writeVariable(ours, step);
            return readVariable(maxLength, step);
        }
        byte[] theirs = readVariable(maxLength, step);
        writeVariable(ours, step);
        return theirs;
    }

    void writeVariable(byte[] bytes, String step) throws IOException {
        transport.write(ByteBuffer.allocate(4).putInt(bytes.length).array(), step);
        if (bytes.length > 0) {
            transport.write(bytes, step);
        }
    }

    byte[] readVariable(int maxLength, String step) throws IOException {
        int length = ByteBuffer.wrap(transport.read(4, step)).getInt();
        if (length < 0 || length > maxLength) {
            throw new ProtocolException("the peer announced a " + length + "-byte message during " + step
                    + " (at most " + maxLength + " expected): not a jperf peer of this version?");
        }
        return length == 0 ? new byte[0] : transport.read(length, step);
    }

    /** One exchange: the client writes then reads, the server reads then writes; same length both ways. */
    byte[] exchange(byte[] ours, String step) throws IOException {
        if (role == Role.CLIENT) {
            transport.write(ours, step);
            return transport.read(ours.length, step);
        }
        byte[] theirs = transport.read(ours.length, step);
        transport.write(ours, step);
        return theirs;
    }

    /** A duration as perftest users read it: "60 s" or "0.500 s". */
    public static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : String.format(Locale.ROOT, "%.3f s", ms / 1000.0);
    }

    private static void requirePositive(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive (got " + timeout + ")");
        }
    }

    private static void sleep(Duration d) throws IOException {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting");
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to release beyond the descriptor
        }
    }

    /**
     * A listening server socket that hands out one {@link ControlChannel}. Close it when done; closing
     * does not affect an accepted channel. Not thread-safe.
     */
    public static final class ControlListener implements AutoCloseable {
        private final ServerSocket server;

        private ControlListener(int port, InetAddress bindAddress) throws IOException {
            server = new ServerSocket();
            try {
                server.setReuseAddress(true);
                server.bind(new InetSocketAddress(bindAddress, port), 1);
            } catch (IOException e) {
                server.close();
                throw new IOException("cannot listen on TCP port " + port
                        + (bindAddress == null ? "" : " of " + bindAddress.getHostAddress()) + ": "
                        + e.getMessage() + " (is another server using it? choose one with -p/--port)", e);
            }
        }

        /** The port listened on (useful when 0 was requested). */
        public int localPort() {
            return server.getLocalPort();
        }

        /**
         * Waits up to {@code timeout} for one client.
         *
         * @return the connected client, or null if none connected in time
         */
        public ControlChannel poll(Duration timeout) throws IOException {
            try {
                return accept(timeout);
            } catch (ProtocolException e) {
                if (e.getCause() instanceof SocketTimeoutException) {
                    return null;
                }
                throw e;
            }
        }

        /**
         * Waits up to {@code timeout} for one client.
         *
         * @throws ProtocolException when no client connected in time
         */
        public ControlChannel accept(Duration timeout) throws IOException {
            requirePositive(timeout);
            server.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
            Socket s;
            try {
                s = server.accept();
            } catch (SocketTimeoutException e) {
                throw new ProtocolException("no client connected to TCP port " + localPort() + " within "
                        + seconds(timeout), e);
            }
            try {
                return new ControlChannel(s, Role.SERVER, timeout);
            } catch (IOException e) {
                closeQuietly(s);
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
