package io.jperf.wire;

import io.jperf.fuzz.Corpus;
import io.jperf.fuzz.FuzzRun;
import io.jperf.fuzz.Mutator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wire codecs fed mutated corpus seeds and random bytes: each input is either decoded into
 * something that encodes back to the same value, or refused with a {@link ProtocolException}
 * whose message is safe to print. Anything else thrown is a crash; a case over its time bound is
 * a hang.
 */
class WireCodecsFuzz {
    private static final long PURE_HANG_MILLIS = 1000;

    @Test
    void extensionMessagesDecodeOrAreRefusedSafely() {
        List<byte[]> seeds = Corpus.load("extension");
        FuzzRun.<byte[]>of("JperfExtension.decode", 30_000, PURE_HANG_MILLIS).run(r -> Mutator.next(seeds, r, 256), input -> {
            Map<String, String> fields;
            try {
                fields = JperfExtension.decode(input);
            } catch (ProtocolException e) {
                assertSafe(e.getMessage());
                return;
            }
            assertTrue(fields.size() <= JperfExtension.MAX_FIELDS);
            assertEquals(fields, JperfExtension.decode(JperfExtension.encode(fields)), "decode(encode(x)) == x");
        });
    }

    @Test
    void keyMessagesDecodeToWhatTheyEncodeOrAreRefused() {
        List<byte[]> seeds = Corpus.load("key-message");
        FuzzRun.<byte[]>of("KeyMessage.decode", 20_000, PURE_HANG_MILLIS).run(r -> Mutator.next(seeds, r, 120), input -> {
            KeyMessage key;
            try {
                key = KeyMessage.decode(input);
            } catch (ProtocolException e) {
                assertSafe(e.getMessage());
                return;
            }
            assertTrue(input.length == KeyMessage.SIZE || input.length == KeyMessage.SIZE_WITH_GID);
            KeyMessage again = KeyMessage.decode(key.encode());
            assertEquals(key.qpn(), again.qpn());
            assertEquals(key.vaddr(), again.vaddr());
            assertArrayEquals(key.gid(), again.gid());
        });
    }

    @Test
    void anyVersionTextParsesToANumber() {
        List<byte[]> seeds = Corpus.load("version");
        FuzzRun.<String>of("PerftestVersion.parse", 10_000, PURE_HANG_MILLIS).run(r -> r.nextBoolean()
                ? new String(Mutator.next(seeds, r, 32), StandardCharsets.ISO_8859_1) : Mutator.text(r, 40), text -> {
            PerftestVersion v = PerftestVersion.parse(text);
            assertTrue(Double.isFinite(v.number()) && v.number() >= 0, text);
        });
    }

    @Test
    void peerTextIsAlwaysSafeToPrint() {
        FuzzRun.<String>of("PeerText", 20_000, PURE_HANG_MILLIS).run(r -> Mutator.text(r, r.nextInt(20) == 0 ? 20_000 : 200),
                text -> {
                    String line = PeerText.line(text);
                    assertTrue(Mutator.safeText(line, false), line);
                    assertTrue(line.length() <= PeerText.MAX_LINE + 48, "length " + line.length());
                    assertTrue(Mutator.safeText(PeerText.multiline(text), true));
                });
    }

    /** Length-prefixed framing over a real socket: the announced length is bounded, a short frame is refused. */
    @Test
    void framesFromARawPeerAreReadOrRefusedInTime() throws IOException {
        List<byte[]> seeds = Corpus.load("framing");
        try (ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            FuzzRun.<byte[]>of("ControlChannel framing", 3_000, 3000).run(r -> Mutator.next(seeds, r, 64),
                    wire -> frame(ss, wire));
        }
    }

    private static void frame(ServerSocket ss, byte[] wire) throws Exception {
        Thread peer = Thread.ofPlatform().daemon().start(() -> {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort())) {
                OutputStream out = s.getOutputStream();
                out.write(wire);
                out.flush();
                s.shutdownOutput();
                s.getInputStream().readAllBytes();
            } catch (IOException e) {
                // the reader closed first: fine
            }
        });
        try (ControlChannel ch = new ControlChannel(ss.accept(), Role.SERVER, Duration.ofSeconds(2))) {
            ch.deadline(System.nanoTime() + Duration.ofSeconds(2).toNanos());
            byte[] got = ch.readVariable(JperfExtension.MAX_BYTES, "fuzzed frame");
            int announced = wire.length >= 4 ? ((wire[0] & 0xff) << 24) | ((wire[1] & 0xff) << 16)
                    | ((wire[2] & 0xff) << 8) | (wire[3] & 0xff) : -1;
            assertEquals(announced, got.length);
            assertArrayEquals(Arrays.copyOfRange(wire, 4, 4 + announced), got);
        } catch (ProtocolException e) {
            assertSafe(e.getMessage());
        }
        peer.join(3000);
    }

    private static void assertSafe(String message) {
        assertTrue(message != null && message.length() < 2048, "message length " + (message == null ? -1 : message.length()));
        assertTrue(Mutator.safeText(message, true), message);
    }
}
