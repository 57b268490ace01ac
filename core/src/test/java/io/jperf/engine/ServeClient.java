package io.jperf.engine;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.PerftestVersion;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@code jperf serve} on 127.0.0.1 served by a background thread, and a client that speaks the
 * real protocol up to the server's answer to its request (no RDMA needed: on a host without RDMA a
 * request that passes every check is refused when the device cannot be opened). For tests.
 */
public final class ServeClient {
    private ServeClient() {
    }

    /** A running server; {@link #close} stops it. */
    public static final class Running implements AutoCloseable {
        final JperfServer server;
        final BlockingQueue<JperfServer.Served> served = new LinkedBlockingQueue<>();
        private final Thread thread;
        private volatile boolean stop;

        Running(ServeLimits limits, Duration timeout) throws IOException {
            int port;
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            server = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).port(port).bindSourceIp("127.0.0.1").build())
                    .timeout(timeout).serveClients(limits);
            thread = Thread.ofPlatform().name("test-serve").daemon().start(() -> {
                while (!stop) {
                    try {
                        server.serveNext(Duration.ofMillis(100)).ifPresent(served::add);
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        int port() {
            return server.port();
        }

        JperfServer.Served next(Duration wait) throws InterruptedException {
            return served.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() throws IOException {
            stop = true;
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.close();
        }
    }

    /** A small valid write-bw request, as a jperf client sends it. */
    public static Map<String, String> smallRequest() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("127.0.0.1").size(4096).iterations(100).build();
        return new LinkedHashMap<>(ServeRequest.fields(o, null));
    }

    /** Sends {@code fields} as the request and returns the server's final answer (after authentication). */
    static Map<String, String> ask(int port, Map<String, String> fields, Optional<AuthSecret> secret) throws IOException {
        return ask("127.0.0.1", port, fields, secret);
    }

    /** As {@link #ask(int, Map, Optional)}, to {@code host}. */
    public static Map<String, String> ask(String host, int port, Map<String, String> fields, Optional<AuthSecret> secret)
            throws IOException {
        try (ControlChannel ch = ControlChannel.connect(host, port, null, Duration.ofSeconds(30))) {
            ch.exchangeVersion(PerftestVersion.ADVERTISED);
            Map<String, String> answer = JperfExtension.exchange(ch, fields, "test request");
            return ServeAuth.respond(ch, answer, secret);
        }
    }

    static Map<String, String> ask(int port, Map<String, String> fields) throws IOException {
        return ask(port, fields, Optional.empty());
    }

    /** The request fields a jperf client sends for {@code options}, naming {@code gid} as its own (null: none). */
    public static Map<String, String> request(TestOptions options, byte[] gid) {
        return new LinkedHashMap<>(ServeRequest.fields(options, null, gid));
    }

    /** The server's refusal, unescaped and made safe as the client shows it; null when it did not refuse. */
    public static String refusal(Map<String, String> answer) {
        return answer.containsKey(ServeRequest.ERROR) ? ServeRequest.unescape(answer.get(ServeRequest.ERROR)) : null;
    }
}
