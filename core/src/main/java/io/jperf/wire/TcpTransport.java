package io.jperf.wire;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * perftest's default control transport: one TCP connection, a byte stream. Reads block for at most
 * the read timeout. Created by {@link ControlChannel#connect} and {@link ControlChannel.ControlListener#accept}.
 *
 * <p>Lifecycle: owns the socket; {@link #close} is idempotent. Not thread-safe.
 */
final class TcpTransport implements ControlTransport {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private Duration readTimeout;
    private long deadline;
    private boolean hasDeadline;

    TcpTransport(Socket socket, Duration readTimeout) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        setReadTimeout(readTimeout);
    }

    @Override
    public void write(byte[] message, String step) throws IOException {
        try {
            out.write(message);
            out.flush();
        } catch (IOException e) {
            throw new ProtocolException("could not send to the peer during " + step + ": " + e.getMessage()
                    + " (the peer probably exited; see its output)", e);
        }
    }

    @Override
    public byte[] read(int n, String step) throws IOException {
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
            throw new ProtocolException("timed out after " + ControlChannel.seconds(readTimeout) + " waiting for the"
                    + " peer during " + step + " (received " + got + " of " + n + " bytes)", e);
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

    static ProtocolException deadlinePassed(String step, int got, int n) {
        return new ProtocolException("the exchange's deadline passed during " + step + " (received " + got + " of "
                + n + " bytes): the peer is too slow or silent");
    }

    @Override
    public void deadline(long nanoTime) {
        this.deadline = nanoTime;
        this.hasDeadline = true;
    }

    @Override
    public void setReadTimeout(Duration timeout) throws IOException {
        socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
        this.readTimeout = timeout;
    }

    @Override
    public Duration readTimeout() {
        return readTimeout;
    }

    @Override
    public boolean messageBased() {
        return false;
    }

    @Override
    public InetAddress localAddress() {
        return socket.getLocalAddress();
    }

    @Override
    public InetAddress remoteAddress() {
        return socket.getInetAddress();
    }

    @Override
    public String name() {
        return "TCP";
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
