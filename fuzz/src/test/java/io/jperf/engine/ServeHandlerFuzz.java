package io.jperf.engine;

import io.jperf.fuzz.Corpus;
import io.jperf.fuzz.Mutator;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.PerftestVersion;
import io.jperf.wire.WireAccess;
import io.jperf.wire.ProtocolException;
import io.jperf.fuzz.FuzzRun;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole {@code jperf serve} request handler over TCP on 127.0.0.1: one server, fed a mutated
 * version message and a mutated request (raw bytes in the length-prefixed frame) per case. The
 * client gets an answer (a refusal in safe text) or the connection ends, within the exchange
 * deadline; the server never stops serving (checked with a correct request at the end), and its
 * serving thread never sees an exception escape.
 */
class ServeHandlerFuzz {
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final long HANG_MILLIS = TIMEOUT.toMillis() + 3000;
    private static JperfServer server;
    private static Thread serving;
    private static volatile boolean stop;
    private static final AtomicReference<Throwable> escaped = new AtomicReference<>();
    private static final AtomicLong served = new AtomicLong();

    @BeforeAll
    static void start() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        server = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).port(port).bindSourceIp("127.0.0.1").build())
                .timeout(TIMEOUT).serveClients(ServeLimits.DEFAULTS.withMaxDuration(Duration.ofSeconds(60)));
        serving = Thread.ofPlatform().name("fuzz-serve").daemon().start(() -> {
            while (!stop) {
                try {
                    server.serveNext(Duration.ofMillis(100)).ifPresent(s -> served.incrementAndGet());
                } catch (Throwable t) {
                    escaped.compareAndSet(null, t);
                    return;
                }
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            assertNull(escaped.get(), "an exception escaped the serving thread");
            Map<String, String> answer = ask(PerftestVersion.ADVERTISED.text().getBytes(),
                    WireAccess.encode(ServeRequest.fields(TestOptions.builder(TestKind.WRITE_BW)
                            .serverHost("h").size(4096).build(), null)));
            assertTrue(answer != null && !String.valueOf(answer.get(ServeRequest.ERROR)).contains("budget"),
                    "the server still serves a correct client after the fuzzing: " + answer);
            System.out.println("ServeHandlerFuzz: served " + served.get() + " sessions, turned away busy "
                    + server.turnedAwayBusy() + ", dropped at deadline " + server.droppedAtDeadline());
        } finally {
            stop = true;
            serving.join(5000);
            server.close();
        }
    }

    @Test
    void theServerAnswersOrHangsUpInTimeAndGoesOn() {
        List<byte[]> versions = Corpus.load("version");
        List<byte[]> requests = Corpus.load("serve-request");
        FuzzRun.<byte[][]>of("jperf serve request handler", 4_000, HANG_MILLIS).run(
                r -> new byte[][] {Mutator.next(versions, r, 16), Mutator.next(requests, r, 256)}, input -> {
                    Map<String, String> answer = ask(input[0], input[1]);
                    if (answer != null && answer.containsKey(ServeRequest.ERROR)) {
                        String shown = ServeRequest.unescape(answer.get(ServeRequest.ERROR));
                        assertTrue(Mutator.safeText(shown, true), shown);
                        assertFalse(shown.length() > 9000, "length " + shown.length());
                    }
                    assertNull(escaped.get(), "an exception escaped the serving thread");
                });
    }

    /** Version (padded or cut to 16 bytes) then the request frame; the answer, or null when the server hung up. */
    private static Map<String, String> ask(byte[] version, byte[] request) throws IOException {
        try (ControlChannel ch = ControlChannel.connect("127.0.0.1", server.port(), null, Duration.ofSeconds(5))) {
            try {
                WireAccess.exchange(ch, Arrays.copyOf(version, ControlChannel.VERSION_SIZE));
                return WireAccess.decode(ch.exchangeVariable(request, JperfExtension.MAX_BYTES, "fuzzed request"));
            } catch (ProtocolException e) {
                return null; // the server turned the version or the request away and hung up
            }
        }
    }
}
