package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class TestOptionsTest {

    private static TestOptions bw(UnaryOperator<TestOptions.Builder> f) {
        return f.apply(TestOptions.builder(TestKind.WRITE_BW)).build();
    }

    private static TestOptions lat(UnaryOperator<TestOptions.Builder> f) {
        return f.apply(TestOptions.builder(TestKind.WRITE_LAT)).build();
    }

    private static String failure(TestKind kind, UnaryOperator<TestOptions.Builder> f) {
        return assertThrows(OptionsException.class, () -> f.apply(TestOptions.builder(kind)).build()).getMessage();
    }

    @Test
    void bandwidthDefaultsArePerftests() {
        TestOptions o = bw(b -> b);
        assertEquals(18515, o.target().port());
        assertNull(o.target().device());
        assertEquals(1, o.target().ibPort());
        assertEquals(65536, o.params().size());
        assertEquals(5000, o.params().iterations());
        assertEquals(128, o.params().txDepth());
        assertEquals(1, o.params().cqModeration(), "65536 > 8192 disables CQ moderation");
        assertFalse(o.params().cqModerationExplicit());
        assertEquals(0, o.params().inlineSize());
        assertEquals(14, o.params().qpTimeout());
        assertEquals(-1, o.target().gidIndex());
        assertEquals(Connection.RC, o.params().connection());
        assertTrue(o.isServer());
        assertTrue(o.params().peakEnabled());
        assertEquals(List.of(65536L), o.params().messageSizes());
    }

    @Test
    void latencyDefaultsArePerftests() {
        TestOptions o = lat(b -> b);
        assertEquals(2, o.params().size());
        assertEquals(1000, o.params().iterations());
        assertEquals(1, o.params().txDepth());
        assertEquals(220, o.params().inlineSize());
        assertFalse(o.params().peakEnabled());
    }

    @Test
    void smallMessagesKeepTheDefaultCqModeration() {
        assertEquals(100, bw(b -> b.size(8192)).params().cqModeration());
        assertEquals(1, bw(b -> b.size(8193)).params().cqModeration());
    }

    @Test
    void explicitCqModerationSurvivesLargeMessagesButIsCappedAtTxDepth() {
        TestOptions o = bw(b -> b.size(65536).cqModeration(64));
        assertEquals(64, o.params().cqModeration());
        assertTrue(o.params().cqModerationExplicit());
        assertEquals(16, bw(b -> b.size(2).cqModeration(64).txDepth(16)).params().cqModeration());
    }

    @Test
    void allSizesDoesNotDisableCqModeration() {
        TestOptions o = bw(b -> b.allSizes(true));
        assertEquals(100, o.params().cqModeration());
        assertEquals(23, o.params().messageSizes().size());
        assertEquals(2L, o.params().messageSizes().getFirst());
        assertEquals(1L << 23, o.params().messageSizes().getLast());
        assertEquals(1L << 23, o.params().maxMessageSize());
    }

    @Test
    void txDepthIsCappedAtIterationsExceptInDurationMode() {
        assertEquals(10, bw(b -> b.iterations(10)).params().txDepth());
        assertEquals(128, bw(b -> b.iterations(10).durationSeconds(5)).params().txDepth());
    }

    @Test
    void postListSetsCqModerationUnlessGiven() {
        assertEquals(4, bw(b -> b.postList(4)).params().cqModeration());
        assertEquals(2, bw(b -> b.postList(4).cqModeration(2)).params().cqModeration());
        assertEquals("-l/--post_list 4 must be a multiple of -Q/--cq-mod 3",
                failure(TestKind.WRITE_BW, b -> b.postList(4).cqModeration(3)));
        assertEquals("-l/--post_list 3: -n/--iters (5000) must be a multiple of it",
                failure(TestKind.WRITE_BW, b -> b.postList(3)));
    }

    @Test
    void peakIsOffForDurationAndAbove20000Iterations() {
        assertTrue(bw(b -> b.iterations(20000)).params().peakEnabled());
        assertFalse(bw(b -> b.iterations(20001)).params().peakEnabled());
        assertFalse(bw(b -> b.durationSeconds(10)).params().peakEnabled());
        assertEquals(2, bw(b -> b.durationSeconds(10)).params().marginSeconds());
    }

    @Test
    void rangeErrorsNameTheFlagAndTheRange() {
        assertEquals("-q/--qp: must be between 1 and 16384 (got 0)", failure(TestKind.WRITE_BW, b -> b.numQps(0)));
        assertEquals("-n/--iters: must be between 5 and 100000000 (got 4)",
                failure(TestKind.WRITE_BW, b -> b.iterations(4)));
        assertEquals("-Q/--cq-mod: must be between 1 and 1024 (got 2000)",
                failure(TestKind.WRITE_BW, b -> b.cqModeration(2000)));
        assertEquals("-S/--sl: must be between 0 and 15 (got 16)", failure(TestKind.WRITE_BW, b -> b.serviceLevel(16)));
        assertEquals("-u/--qp-timeout: must be between 0 and 31 (got 32)",
                failure(TestKind.WRITE_BW, b -> b.qpTimeout(32)));
        assertEquals("-I/--inline_size: must be between 0 and 912 (got 913)",
                failure(TestKind.WRITE_BW, b -> b.inlineSize(913)));
        assertEquals("-p/--port: must be between 1 and 65535 (got 70000)",
                failure(TestKind.WRITE_BW, b -> b.port(70000)));
        assertEquals("--tclass: must be between 0 and 255 (got 256)",
                failure(TestKind.WRITE_BW, b -> b.trafficClass(256)));
        assertEquals("-m/--mtu: 1500 is not an IB MTU; use 256, 512, 1024, 2048 or 4096",
                failure(TestKind.WRITE_BW, b -> b.mtu(1500)));
        assertTrue(failure(TestKind.WRITE_BW, b -> b.gidIndex(-2)).startsWith("-x/--gid-index"));
    }

    @Test
    void conflictsNameBothSides() {
        assertTrue(failure(TestKind.WRITE_BW, b -> b.allSizes(true).durationSeconds(5))
                .startsWith("-D/--duration cannot be combined with -a/--all"));
        assertEquals("-T/--tos: only valid with -R/--rdma_cm (use --tclass without -R)",
                failure(TestKind.WRITE_BW, b -> b.tos(96)));
        assertEquals(96, bw(b -> b.rdmaCm(true).tos(96)).params().tos());
        assertEquals("-c UC cannot be combined with -R/--rdma_cm: librdmacm does not support UC",
                failure(TestKind.WRITE_BW, b -> b.connection(Connection.UC).rdmaCm(true)));
        assertTrue(failure(TestKind.WRITE_BW, b -> b.postList(8).txDepth(4).iterations(8))
                .contains("exceeds -t/--tx-depth 4"));
    }

    @Test
    void latencyRefusesBandwidthOnlyOptions() {
        assertEquals("-q/--qp: multiple QPs are only available in bandwidth tests, ib_write_lat uses 1",
                failure(TestKind.WRITE_LAT, b -> b.numQps(2)));
        assertEquals("-b/--bidirectional: only available in bandwidth tests, not in ib_write_lat",
                failure(TestKind.WRITE_LAT, b -> b.bidirectional(true)));
        assertTrue(failure(TestKind.WRITE_LAT, b -> b.connection(Connection.UC)).startsWith("-c/--connection"));
        assertTrue(failure(TestKind.WRITE_LAT, b -> b.postList(2)).startsWith("-l/--post_list"));
        assertEquals("--output=bandwidth: not valid for ib_write_lat; use latency",
                failure(TestKind.WRITE_LAT, b -> b.outputMode(OutputMode.BANDWIDTH)));
        assertEquals(OutputMode.LATENCY, lat(b -> b.outputMode(OutputMode.parse("latency"))).output().outputMode());
    }

    @Test
    void jsonDefaultsToPerftestsFileName() {
        assertEquals(Path.of("perftest_out.json"), bw(b -> b.json(true)).output().jsonFile());
        TestOptions o = bw(b -> b.jsonFile(Path.of("/tmp/x.json")));
        assertTrue(o.output().json());
        assertFalse(bw(b -> b).output().json());
    }

    @Test
    void toBuilderRoundTrips() {
        TestOptions o = bw(b -> b.serverHost("10.0.0.2").size("4K").cqModeration(16).numQps(4).gidIndex(3)
                .json(true).mtu(1024));
        assertEquals(o, o.toBuilder().build());
        assertFalse(o.isServer());
    }

    @Test
    void symmetricMismatchesListEachDifferingFlag() {
        TestOptions a = bw(b -> b);
        TestOptions peer = bw(b -> b.size(4096).numQps(2).reportGbits(true).mtu(1024));
        assertEquals(List.of(
                "-m/--mtu: local port active MTU, remote 1024",
                "-q/--qp: local 1, remote 2",
                "-s/--size: local 65536, remote 4096",
                "--report_gbits: local false, remote true"), a.params().symmetricMismatches(peer.params()));
        assertTrue(a.params().symmetricMismatches(bw(b -> b.serverHost("h").gidIndex(2)).params()).isEmpty(),
                "non-symmetric options may differ");
    }

    @Test
    void toBuilderRoundTripsAllThreeParts() {
        TestOptions o = bw(b -> b.size("4K").iterations(2000).numQps(2).bidirectional(true).txDepth(64)
                .postList(4).cqModeration(4).inlineSize(64).mtu(2048).serviceLevel(3).trafficClass(96)
                .qpTimeout(18).rdmaCm(true).tos(32).reportGbits(true).noPeak(true).mrPerQp(true)
                .serverHost("10.0.0.2").port(20000).device("mlx5_1").ibPort(2).gidIndex(3).bindSourceIp("10.0.0.1")
                .outputMode(OutputMode.BANDWIDTH).jsonFile(Path.of("/tmp/r.json")).csvFile(Path.of("/tmp/r.csv"))
                .hlogFile(Path.of("/tmp/r.hlog")));
        assertTrue(o.params().rdmaCm() && o.params().buffers().mrPerQp() && o.params().cqModerationExplicit()
                && o.params().inlineSizeExplicit(), "non-default parameters");
        assertEquals("mlx5_1", o.target().device());
        assertEquals(OutputMode.BANDWIDTH, o.output().outputMode());
        TestOptions copy = o.toBuilder().build();
        assertEquals(o.params(), copy.params());
        assertEquals(o.target(), copy.target());
        assertEquals(o.output(), copy.output());
        TestOptions timed = lat(b -> b.durationSeconds(10).margin(2).loopback(true).outputMode(OutputMode.LATENCY));
        assertEquals(timed, timed.toBuilder().build());
    }

    @Test
    void theConstructorChecksWhatSpansTheParts() {
        TestOptions bw = bw(b -> b);
        OutputOptions latencyOnly = new OutputOptions(OutputMode.LATENCY, false, null, null, null);
        assertEquals("--output=latency: not valid for ib_write_bw; use bandwidth or message_rate",
                assertThrows(OptionsException.class,
                        () -> new TestOptions(bw.params(), bw.target(), latencyOnly)).getMessage());
        TestOptions infinite = bw(b -> b.runInfinitely(true));
        ConnectionTarget loopback = new ConnectionTarget(null, 18515, null, 1, -1, null, true);
        assertEquals("--run_infinitely: jperf does not run --loopback infinitely yet",
                assertThrows(OptionsException.class,
                        () -> new TestOptions(infinite.params(), loopback, infinite.output())).getMessage());
        assertThrows(NullPointerException.class, () -> new TestOptions(bw.params(), null, bw.output()));
    }
}
