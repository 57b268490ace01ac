package io.jperf.engine;

import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pieces of serve's safety checks on their own: memory estimate, budget, GID ownership, the secret. */
class ServeChecksTest {
    private static TestOptions.Builder bw() {
        return TestOptions.builder(TestKind.WRITE_BW);
    }

    @Test
    void theEstimateCountsBuffersTimestampsAndQueuesWithoutOverflow() {
        ResourceEstimate e = ResourceEstimate.of(bw().size(65536).numQps(2).iterations(1000).build().params());
        assertEquals(65536L * 2 * 2, e.bufferBytes(), "two slices per QP");
        assertEquals(2L * 8 * 1000 * 2, e.heapBytes(), "posted and completed stamps per iteration and QP");
        assertTrue(e.queueBytes() > 0);

        ResourceEstimate worst = ResourceEstimate.of(bw().size(Integer.MAX_VALUE).numQps(16384).txDepth(15000)
                .iterations(20000).build().params());
        assertTrue(worst.totalBytes() > 0 && worst.bufferBytes() > (1L << 45), worst.describe());

        ResourceEstimate lat = ResourceEstimate.of(TestOptions.builder(TestKind.WRITE_LAT).iterations(100_000_000).build().params());
        assertEquals(2L * 8 * 100_000_000, lat.heapBytes());
        assertEquals("8.0 GiB", ResourceEstimate.format(8L << 30));
    }

    @Test
    void theBudgetRefusesEachProductOverItsLimitAndNamesIt() {
        ServeLimits limits = ServeLimits.DEFAULTS.withMaxDuration(Duration.ofSeconds(60));
        ServeBudget.check(bw().size(65536).numQps(4).build().params(), limits);
        ServeBudget.check(bw().allSizes(true).numQps(16).build().params(), limits);

        String memory = assertThrows(ServeRefusedException.class,
                () -> ServeBudget.check(bw().size(1L << 30).build().params(), limits)).getMessage();
        assertTrue(memory.contains("needs 2.0 GiB") && memory.contains("--max-memory 512.0 MiB"), memory);

        String transfer = assertThrows(ServeRefusedException.class, () -> ServeBudget.check(
                bw().size(8 << 20).numQps(16).iterations(100_000_000).txDepth(1).build().params(),
                limits.withMaxMemory(1L << 40))).getMessage();
        assertTrue(transfer.contains("even at 400 Gb/s") && transfer.contains("--max-duration 60 s"), transfer);

        String duration = assertThrows(ServeRefusedException.class,
                () -> ServeBudget.check(bw().durationSeconds(61).build().params(), limits)).getMessage();
        assertTrue(duration.contains("-D 61"), duration);
    }

    @Test
    void aGidBelongsToTheClientOnlyWhenItIsItsAddress() throws Exception {
        InetAddress client = InetAddress.getByName("10.20.0.1");
        byte[] same = HexFormat.of().parseHex("00000000000000000000ffff0a140001");
        byte[] other = HexFormat.of().parseHex("00000000000000000000ffffc0000201");
        byte[] linkLocal = HexFormat.of().parseHex("fe800000000000000211223344556677");
        assertTrue(GidOwnership.problem(same, client).isEmpty());
        assertTrue(GidOwnership.problem(same, InetAddress.getByName("::ffff:10.20.0.1")).isEmpty(), "v4-mapped peer");
        assertTrue(GidOwnership.problem(other, client).orElseThrow().contains("192.0.2.1"));
        assertTrue(GidOwnership.problem(linkLocal, client).orElseThrow().contains("carries no IP address"));
        assertTrue(GidOwnership.problem(null, client).orElseThrow().contains("no GID"));
        byte[] v6 = InetAddress.getByName("2001:db8::5").getAddress();
        assertTrue(GidOwnership.problem(v6, InetAddress.getByName("2001:db8::5")).isEmpty());
        // from loopback, only this host's own addresses
        assertTrue(GidOwnership.problem(HexFormat.of().parseHex("00000000000000000000ffff7f000001"),
                InetAddress.getLoopbackAddress()).isEmpty());
        assertFalse(GidOwnership.problem(other, InetAddress.getLoopbackAddress()).isEmpty());
    }

    @Test
    void theSecretIsReadTrimmedAndNeverShown(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "  0123456789abcdef-secret\n");
        AuthSecret s = AuthSecret.fromFile(file);
        assertEquals(AuthSecret.of("0123456789abcdef-secret", "x"), s);
        assertFalse(s.toString().contains("0123"), s.toString());
        Files.writeString(file, "short\n");
        assertTrue(assertThrows(OptionsException.class, () -> AuthSecret.fromFile(file)).getMessage().contains("at least 16"));
        assertThrows(OptionsException.class, () -> AuthSecret.fromFile(dir.resolve("missing")));
        byte[] a = s.mac("label", new byte[] {1, 2}, new byte[] {3});
        assertNotEquals(HexFormat.of().formatHex(a), HexFormat.of().formatHex(s.mac("label", new byte[] {1}, new byte[] {2, 3})),
                "length prefixes keep the parts apart");
    }

    @Test
    void requestFieldsThatCouldSteerTheServerAreChecked() {
        assertThrows(OptionsException.class, () -> ServeRequest.literalAddress(Map.of("serve.address", "localhost")));
        assertEquals("10.0.0.2", ServeRequest.literalAddress(Map.of("serve.address", "10.0.0.2")).orElseThrow().getHostAddress());
        assertThrows(OptionsException.class, () -> ServeRequest.clientGid(Map.of("serve.client_gid", "zz")));
        assertEquals(16, ServeRequest.clientGid(Map.of("serve.client_gid", "00".repeat(16))).orElseThrow().length);
    }
}
