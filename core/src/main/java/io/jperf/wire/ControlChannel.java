package io.jperf.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
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
 * perftest's out-of-band TCP control connection (non-rdma_cm mode), byte-compatible with perftest 6.06.
 *
 * <p>Every exchange sends one fixed-size message each way: the {@link Role#CLIENT} writes and then reads,
 * the {@link Role#SERVER} reads and then writes. Reads block for at most the read timeout
 * ({@link #setReadTimeout}); a peer that closes, stalls or sends bytes that are not perftest's format
 * raises a {@link ProtocolException} naming the step. Which exchanges happen in which order is decided by
 * {@link PerftestHandshake}, not here.
 *
 * <p>Lifecycle: obtained connected from {@link #connect} or {@link ControlListener#accept}; {@link #close}
 * is idempotent. Not thread-safe: one thread drives the exchange.
 */
public final class ControlChannel implements AutoCloseable {

    /** Length of the version message. */
    public static final int VERSION_SIZE = 16;
    /** The bytes each side writes after the final key exchange: {@code "done"} and its NUL. */
    static final byte[] DONE = "done\0".getBytes(StandardCharsets.US_ASCII);

    private static final Duration RETRY_PAUSE = Duration.ofMillis(100);
    private static final Duration DONE_DRAIN_TIMEOUT = Duration.ofMillis(500);

    private final Socket socket;
    private final Role role;
    private final InputStream in;
    private final OutputStream out;
    private Duration readTimeout;
    private long deadline;
    private boolean hasDeadline;
    private PerftestVersion remoteVersion;

    ControlChannel(Socket socket, Role role, Duration readTimeout) throws IOException {
        this.socket = socket;
        this.role = role;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        setReadTimeout(readTimeout);
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

    /** This end's address of the connection (on a server: the address the client reached). */
    public java.net.InetAddress localAddress() {
        return socket.getLocalAddress();
    }

    /** The peer's address of the connection. */
    public java.net.InetAddress remoteAddress() {
        return socket.getInetAddress();
    }

    /** The peer's version once {@link #exchangeVersion} has run, else null. */
    public PerftestVersion remoteVersion() {
        return remoteVersion;
    }

    /** The current read timeout. */
    public Duration readTimeout() {
        return readTimeout;
    }

    /**
     * Sets how long each read may wait for the peer, e.g. longer while the peer runs its measurement.
     *
     * @throws IOException if the socket is closed
     */
    public void setReadTimeout(Duration timeout) throws IOException {
        requirePositive(timeout);
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        this.readTimeout = timeout;
    }

    /**
     * Bounds the whole exchange from here on, not each read: every later read waits at most the
     * read timeout or the time left until {@code nanoTime} ({@link System#nanoTime()} scale),
     * whichever is shorter, and once it has passed a read fails at once. A server uses it so that a
     * peer sending one byte just before each read timeout cannot hold it longer than the deadline.
     */
    public void deadline(long nanoTime) {
        this.deadline = nanoTime;
        this.hasDeadline = true;
    }

    /**
     * Exchanges the 16-byte NUL-padded version strings.
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
     * Exchanges one QP's key message. The peer's message must have the same length as ours (both with a
     * GID or both without).
     */
    public KeyMessage exchangeKeys(KeyMessage ours) throws IOException {
        return exchangeKeys(ours, "key exchange");
    }

    /** One more key message exchange of the same local message: both sides are past the previous step. */
    public KeyMessage barrier(KeyMessage ours) throws IOException {
        return exchangeKeys(ours, "barrier");
    }

    KeyMessage exchangeKeys(KeyMessage ours, String step) throws IOException {
        return KeyMessage.decode(exchange(ours.encode(), step + " (" + ours.encodedSize()
                + "-byte key message; check both sides agree on -x/--gid-index)"));
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
     * perftest's closing sequence: a final key exchange, then each side writes {@code "done\0"} and
     * closes. jperf also reads the peer's {@code "done"} briefly before closing so that unread bytes do not
     * turn the close into a reset.
     */
    public void closeHandshake(KeyMessage ours) throws IOException {
        exchangeKeys(ours, "closing handshake");
        write(DONE, "closing handshake");
        try {
            setReadTimeout(DONE_DRAIN_TIMEOUT);
            in.readNBytes(DONE.length);
        } catch (IOException ignored) {
            // The peer may already have closed; its "done" is a courtesy, not part of the result.
        } finally {
            close();
        }
    }

    /** Closes the connection. Idempotent. */
    @Override
    public void close() throws IOException {
        socket.close();
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
        write(ByteBuffer.allocate(4 + bytes.length).putInt(bytes.length).put(bytes).array(), step);
    }

    byte[] readVariable(int maxLength, String step) throws IOException {
        int length = ByteBuffer.wrap(readFully(4, step)).getInt();
        if (length < 0 || length > maxLength) {
            throw new ProtocolException("the peer announced a " + length + "-byte message during " + step
                    + " (at most " + maxLength + " expected): not a jperf peer of this version?");
        }
        return readFully(length, step);
    }

    /** One exchange: the client writes then reads, the server reads then writes; same length both ways. */
    byte[] exchange(byte[] ours, String step) throws IOException {
        if (role == Role.CLIENT) {
            write(ours, step);
            return readFully(ours.length, step);
        }
        byte[] theirs = readFully(ours.length, step);
        write(ours, step);
        return theirs;
    }

    private void write(byte[] bytes, String step) throws IOException {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new ProtocolException("could not send to the peer during " + step + ": " + e.getMessage()
                    + " (the peer probably exited; see its output)", e);
        }
    }

    private byte[] readFully(int n, String step) throws IOException {
        byte[] buf = new byte[n];
        int got = 0;
        try {
            while (got < n) {
                boundByDeadline(step, got, n);
                int r = in.read(buf, got, n - got);
                if (r < 0) {
                    throw new EOFException();
                }
                got += r;
            }
        } catch (EOFException e) {
            throw new ProtocolException("peer closed the control connection during " + step + " (received "
                    + got + " of " + n + " bytes); see the peer's output for why it stopped", e);
        } catch (SocketTimeoutException e) {
            if (hasDeadline && System.nanoTime() - deadline >= 0) {
                throw deadlinePassed(step, got, n);
            }
            throw new ProtocolException("timed out after " + seconds(readTimeout) + " waiting for the peer"
                    + " during " + step + " (received " + got + " of " + n + " bytes)", e);
        } catch (IOException e) {
            throw new ProtocolException("control connection failed during " + step + ": " + e.getMessage(), e);
        }
        return buf;
    }

    /** Before a read: the socket waits at most until the deadline, and not at all once it has passed. */
    private void boundByDeadline(String step, int got, int n) throws IOException {
        if (!hasDeadline) {
            return;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw deadlinePassed(step, got, n);
        }
        long ms = Math.max(1, Math.min(readTimeout.toMillis(), (left + 999_999) / 1_000_000));
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, ms));
    }

    private static ProtocolException deadlinePassed(String step, int got, int n) {
        return new ProtocolException("the exchange's deadline passed during " + step + " (received " + got + " of "
                + n + " bytes): the peer is too slow or silent");
    }

    static String seconds(Duration d) {
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
