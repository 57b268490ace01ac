package io.jperf.engine;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.PerftestVersion;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jperf serve} against careless and hostile clients on 127.0.0.1, without RDMA: each is
 * refused (or dropped) in one line, before anything is allocated, and the server goes on serving.
 */
class JperfServerSafetyTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final AuthSecret SECRET = AuthSecret.of("correct horse battery staple", "test");

    /** A refusal that is not one of the safety checks: the request got as far as opening the device. */
    private static void assertPassedTheChecks(Map<String, String> answer) {
        String r = ServeClient.refusal(answer);
        if (r != null) {
            for (String check : new String[] {"authentication", "budget", "GID", "not valid", "busy"}) {
                assertFalse(r.contains(check), "refused by the " + check + " check: " + r);
            }
        }
    }

    @Test
    void aRequestOverTheMemoryBudgetIsRefusedInOneLineAndTheServerGoesOn() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT)) {
            Map<String, String> huge = ServeClient.smallRequest();
            huge.put("serve.size", Long.toString(Integer.MAX_VALUE));
            huge.put("serve.qps", "4");
            String r = ServeClient.refusal(ServeClient.ask(s.port(), huge));
            assertNotNull(r);
            assertTrue(r.contains("over this server's budget") && r.contains("--max-memory 512.0 MiB"), r);
            assertFalse(r.contains("\n"), r);
            assertTrue(s.next(TIMEOUT).failure().isPresent());

            assertPassedTheChecks(ServeClient.ask(s.port(), ServeClient.smallRequest()));
            assertNotNull(s.next(TIMEOUT), "the next client is served");
        }
    }

    @Test
    void aCountedTestThatCannotEndWithinMaxDurationIsRefused() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS.withMaxDuration(Duration.ofSeconds(30))
                .withMaxMemory(8L << 30), TIMEOUT)) {
            TestOptions lat = TestOptions.builder(TestKind.WRITE_LAT).serverHost("h").size(2).iterations(100_000_000).build();
            String r = ServeClient.refusal(ServeClient.ask(s.port(), ServeRequest.fields(lat, null)));
            assertNotNull(r);
            assertTrue(r.contains("--max-duration 30 s"), r);

            TestOptions timed = TestOptions.builder(TestKind.WRITE_BW).serverHost("h").durationSeconds(31).build();
            r = ServeClient.refusal(ServeClient.ask(s.port(), ServeRequest.fields(timed, null)));
            assertTrue(r != null && r.contains("-D 31 is longer than"), r);
        }
    }

    @Test
    void whileAClientHoldsTheServerOthersHearBusyAtOnceAndAreServedAfterIt() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT);
             Socket silent = new Socket("127.0.0.1", s.port())) {
            Thread.sleep(300); // the silent client is the one being served
            long t0 = System.nanoTime();
            Map<String, String> busy = ServeClient.ask(s.port(), ServeClient.smallRequest());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("true", busy.get(ServeRequest.BUSY), busy.toString());
            assertTrue(ServeClient.refusal(busy).contains("try again"), busy.toString());
            assertTrue(ms < 1500, "busy answer took " + ms + " ms");

            JperfServer.Served dropped = s.next(Duration.ofSeconds(5));
            assertNotNull(dropped, "the silent client was dropped at its deadline");
            assertTrue(dropped.failure().isPresent());
            assertEquals(1, s.server.turnedAwayBusy());
            assertPassedTheChecks(ServeClient.ask(s.port(), ServeClient.smallRequest()));
        }
    }

    @Test
    void aClientSendingOneByteJustInsideEachReadTimeoutIsDroppedAtTheExchangeDeadline() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT);
             Socket slow = new Socket("127.0.0.1", s.port())) {
            long t0 = System.nanoTime();
            Thread trickle = Thread.ofPlatform().daemon().start(() -> {
                try {
                    OutputStream out = slow.getOutputStream();
                    for (byte b : "6.06 jperf\0\0\0\0\0\0".getBytes(StandardCharsets.US_ASCII)) {
                        out.write(b);
                        out.flush();
                        Thread.sleep(TIMEOUT.toMillis() * 3 / 4); // each read alone would not time out
                    }
                } catch (Exception e) {
                    // dropped: expected
                }
            });
            JperfServer.Served dropped = s.next(Duration.ofSeconds(8));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertNotNull(dropped);
            String why = dropped.failure().orElseThrow().getMessage();
            assertTrue(why.contains("deadline"), why);
            assertTrue(ms < TIMEOUT.toMillis() + 2500, "dropped after " + ms + " ms");
            trickle.interrupt();
        }
    }

    @Test
    void withASecretOnlyAClientThatProvesItIsServed() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS.withAuthSecret(SECRET), TIMEOUT)) {
            String none = ServeClient.refusal(ServeClient.ask(s.port(), ServeClient.smallRequest()));
            assertTrue(none != null && none.contains("requires authentication"), none);
            assertTrue(s.next(TIMEOUT).failure().isPresent());

            String wrong = ServeClient.refusal(ServeClient.ask(s.port(), ServeClient.smallRequest(),
                    Optional.of(AuthSecret.of("a different secret, long enough", "test"))));
            assertTrue(wrong != null && wrong.contains("authentication failed"), wrong);
            assertTrue(s.next(TIMEOUT).failure().orElseThrow().getMessage().contains("authentication failed"));

            // the right secret: the server's proof checks out (respond would throw) and the request goes on
            assertPassedTheChecks(ServeClient.ask(s.port(), ServeClient.smallRequest(), Optional.of(SECRET)));
            assertNotNull(s.next(TIMEOUT));
        }
    }

    @Test
    void anUnauthenticatedRequestIsNotEvenParsed() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS.withAuthSecret(SECRET), TIMEOUT)) {
            Map<String, String> bad = ServeClient.smallRequest();
            bad.put("serve.size", "not a number");
            String r = ServeClient.refusal(ServeClient.ask(s.port(), bad));
            assertTrue(r.contains("requires authentication"), r);
        }
    }

    @Test
    void aGidThatIsNotTheClientsAddressIsRefusedUnlessAllowed() throws Exception {
        byte[] elsewhere = HexFormat.of().parseHex("00000000000000000000ffffc0000201"); // 192.0.2.1
        byte[] own = HexFormat.of().parseHex("00000000000000000000ffff7f000001"); // 127.0.0.1
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("h").size(4096).build();
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT)) {
            String r = ServeClient.refusal(ServeClient.ask(s.port(), ServeRequest.fields(o, null, elsewhere)));
            assertTrue(r != null && r.contains("192.0.2.1") && r.contains("connected from 127.0.0.1"), r);
            assertPassedTheChecks(ServeClient.ask(s.port(), ServeRequest.fields(o, null, own)));
        }
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS.withAllowGidMismatch(true), TIMEOUT)) {
            assertPassedTheChecks(ServeClient.ask(s.port(), ServeRequest.fields(o, null, elsewhere)));
        }
    }

    @Test
    void aNameInsteadOfAnAddressIsRefusedWithoutResolvingIt() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT)) {
            TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("h").build();
            String r = ServeClient.refusal(ServeClient.ask(s.port(), ServeRequest.fields(o, "attacker-chosen.example")));
            assertTrue(r != null && r.contains("not an IP address") && r.contains("does not resolve names"), r);
        }
    }

    @Test
    void controlCharactersAndLongTextFromTheClientAreEscapedAndCut() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT)) {
            Map<String, String> evil = ServeClient.smallRequest();
            evil.put("serve.kind", "\u001b[2J\u001b]0;owned\u0007" + "x".repeat(7_000));
            String r = ServeClient.refusal(ServeClient.ask(s.port(), evil));
            String logged = s.next(TIMEOUT).failure().orElseThrow().getMessage();
            for (String text : new String[] {r, logged}) {
                assertFalse(text.chars().anyMatch(c -> c == 0x1b || c == 0x07), text);
                assertTrue(text.contains("\\x1b[2J"), text);
                assertTrue(text.length() < 2000, "length " + text.length());
            }
            // a request larger than any real one is not even read
            evil.put("serve.kind", "x".repeat(60_000));
            org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> ServeClient.ask(s.port(), evil));
            String why = s.next(TIMEOUT).failure().orElseThrow().getMessage();
            assertTrue(why.contains("at most " + io.jperf.wire.JperfExtension.MAX_REQUEST_BYTES), why);
        }
    }

    @Test
    void aPerftestClientIsTurnedAwayAndTheServerGoesOn() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT)) {
            try (ControlChannel ch = ControlChannel.connect("127.0.0.1", s.port(), null, TIMEOUT)) {
                ch.exchangeVersion(PerftestVersion.parse("6.06"));
            }
            assertTrue(s.next(TIMEOUT).failure().orElseThrow().getMessage().contains("perftest"));
            assertPassedTheChecks(ServeClient.ask(s.port(), ServeClient.smallRequest()));
        }
    }

    @Test
    void garbageAndAbruptClosesNeverStopTheServer() throws Exception {
        try (ServeClient.Running s = new ServeClient.Running(ServeLimits.DEFAULTS, TIMEOUT)) {
            for (byte[] junk : new byte[][] {new byte[0], "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                    "6.06 jperf\0\0\0\0\0\0\u007f\u00ff\u00ff\u00ff".getBytes(StandardCharsets.ISO_8859_1)}) {
                try (Socket raw = new Socket("127.0.0.1", s.port())) {
                    raw.getOutputStream().write(junk);
                    raw.shutdownOutput();
                    InputStream in = raw.getInputStream();
                    in.readAllBytes();
                }
                assertNotNull(s.next(Duration.ofSeconds(4)), "each connection ends as a served failure");
            }
            assertPassedTheChecks(ServeClient.ask(s.port(), ServeClient.smallRequest()));
        }
    }
}
