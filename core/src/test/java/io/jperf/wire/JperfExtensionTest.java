package io.jperf.wire;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The jperf extension between the version exchange and the rest of the preamble, as a served session runs it. */
class JperfExtensionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void aServerAnswersFromTheClientsFieldsThenBothFinishThePreamble() throws Exception {
        try (ControlChannel.ControlListener listener = ControlChannel.listen(0, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> server = CompletableFuture.supplyAsync(() -> {
                try (ControlChannel ch = listener.accept(TIMEOUT)) {
                    ch.exchangeVersion(PerftestVersion.ADVERTISED);
                    Map<String, String> asked = JperfExtension.respond(ch,
                            theirs -> Map.of("size.seen", theirs.get("size")), "served exchange");
                    TestOptions learned = TestOptions.builder(TestKind.valueOf(asked.get("kind")))
                            .size(Long.parseLong(asked.get("size"))).build();
                    PerftestHandshake h = PerftestHandshake.afterVersion(ch, learned.params());
                    return h.preamble(4096, 64, 3).ibvMtu() + "/" + learned.params().size();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            TestOptions client = TestOptions.builder(TestKind.WRITE_LAT).serverHost("127.0.0.1")
                    .port(listener.localPort()).build();
            try (ControlChannel ch = ControlChannel.connect("127.0.0.1", listener.localPort(), null, TIMEOUT);
                 PerftestHandshake h = new PerftestHandshake(ch, client.params(), Duration.ZERO)) {
                assertEquals("6.06 jperf", h.exchangeVersion().text());
                Map<String, String> ours = new LinkedHashMap<>();
                ours.put("kind", "WRITE_LAT");
                ours.put("size", "4096");
                assertEquals(Map.of("size.seen", "4096"), JperfExtension.exchange(ch, ours, "served exchange"));
                PerftestHandshake.Preamble p = h.preamble(4096, 64, 5);
                assertEquals(3, p.ibvMtu(), "the smaller MTU of the two");
                assertEquals("6.06 jperf", p.remoteVersion().text());
            }
            assertEquals("3/4096", server.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void onlyTheServerAnswersAndOnlyAfterTheVersion() throws Exception {
        try (ControlChannel.ControlListener listener = ControlChannel.listen(0, InetAddress.getLoopbackAddress());
             ControlChannel client = ControlChannel.connect("127.0.0.1", listener.localPort(), null, TIMEOUT);
             ControlChannel server = listener.accept(TIMEOUT)) {
            assertThrows(IllegalStateException.class, () -> JperfExtension.respond(client, f -> f, "x"));
            TestOptions serverOptions = TestOptions.builder(TestKind.WRITE_BW).build();
            assertThrows(IllegalStateException.class, () -> PerftestHandshake.afterVersion(server, serverOptions.params()));
        }
    }
}
