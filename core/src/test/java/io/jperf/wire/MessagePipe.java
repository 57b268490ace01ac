package io.jperf.wire;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two connected message-based transports in memory, standing in for perftest's RDMA CM control QP:
 * each {@link ControlTransport#write} is one message (split at the peer's receive size, as the real
 * transport does), each read takes whole messages. Every message sent is recorded with its size.
 */
final class MessagePipe {
    final End a = new End();
    final End b = new End();

    MessagePipe() {
        a.peer = b;
        b.peer = a;
    }

    /** One end; {@link #sent} lists the sizes of the messages it sent. */
    static final class End implements ControlTransport {
        private final BlockingQueue<byte[]> inbox = new LinkedBlockingQueue<>();
        final List<Integer> sent = new ArrayList<>();
        End peer;
        int limit = SMALLEST_PEER_RECEIVE;
        private Duration timeout = Duration.ofSeconds(5);
        private boolean closed;

        @Override
        public void write(byte[] message, String step) throws IOException {
            if (closed || peer.closed) {
                throw new ProtocolException("closed during " + step);
            }
            int off = 0;
            do {
                int n = Math.min(limit, message.length - off);
                byte[] piece = new byte[n];
                System.arraycopy(message, off, piece, 0, n);
                sent.add(n);
                peer.inbox.add(piece);
                off += n;
            } while (off < message.length);
        }

        @Override
        public byte[] read(int n, String step) throws IOException {
            byte[] out = new byte[n];
            int got = 0;
            while (got < n) {
                byte[] m;
                try {
                    m = inbox.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                if (m == null) {
                    throw new ProtocolException("timed out during " + step);
                }
                if (got + m.length > n) {
                    throw new ProtocolException("the peer sent a " + m.length + "-byte message during " + step
                            + " where " + (n - got) + " bytes were expected");
                }
                System.arraycopy(m, 0, out, got, m.length);
                got += m.length;
            }
            return out;
        }

        /** Queues a raw message as if the peer had sent it. */
        void deliver(byte[] message) {
            inbox.add(message);
        }

        @Override
        public void setReadTimeout(Duration t) {
            timeout = t;
        }

        @Override
        public void deadline(long nanoTime) {
            long left = Math.max(1, (nanoTime - System.nanoTime()) / 1_000_000);
            timeout = Duration.ofMillis(Math.min(timeout.toMillis(), left));
        }

        @Override
        public Duration readTimeout() {
            return timeout;
        }

        @Override
        public void limitMessagesTo(int bytes) {
            limit = bytes;
        }

        @Override
        public boolean messageBased() {
            return true;
        }

        @Override
        public InetAddress localAddress() {
            return InetAddress.getLoopbackAddress();
        }

        @Override
        public InetAddress remoteAddress() {
            return InetAddress.getLoopbackAddress();
        }

        @Override
        public String name() {
            return "in-memory messages";
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
