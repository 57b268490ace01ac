package io.jperf.lab;

import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * write-bw and write-lat on real rxe devices: jperf against jperf, against Debian's perftest
 * (6.06) in both directions, and the options that change the loops. Few iterations: these
 * assert function, never timing (the lab's emulated CPUs are slow and noisy).
 */
@Tag("lab")
class LabWriteTestsTest {
    private static final String SERVER_DEV = "rxe0";
    private static final String CLIENT_DEV = "rxe1";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static String serverIp;
    private static int serverGid;
    private static int clientGid;

    @BeforeAll
    static void findTheLabEnds() {
        LabEnds ends = LabEnds.find();
        serverIp = ends.serverIp();
        serverGid = ends.serverGid();
        clientGid = ends.clientGid();
    }

    private static TestOptions.Builder options(TestKind kind) {
        return TestOptions.builder(kind).device(CLIENT_DEV).iterations(200);
    }

    private static PerfTestResult loopback(TestOptions options) {
        return PerfTest.of(options).timeout(TIMEOUT).settleDelay(Duration.ZERO).runLoopback(SERVER_DEV);
    }

    @Test
    void bandwidthJperfToJperfReportsOneRowAndBothPaths() {
        PerfTestResult r = loopback(options(TestKind.WRITE_BW).loopback(true).build());
        BandwidthResult bw = r.bandwidth().getFirst();
        assertEquals(1, r.bandwidth().size());
        assertEquals(65536, bw.sizeBytes());
        assertEquals(200, bw.iterations());
        assertTrue(bw.average() > 0 && bw.peak() >= bw.average() * 0.5, bw.toString());
        assertTrue(r.peerVersion().contains("jperf"), r.peerVersion());
        assertTrue(r.path().orElseThrow().peer().isPresent(), "a jperf peer sends its path record");
        assertEquals(List.of(), r.path().orElseThrow().verdicts(), "the lab's single-guest path is consistent");
        assertEquals(CLIENT_DEV, r.header().device());
    }

    @Test
    void latencyJperfToJperfOrdersItsStatistics() {
        PerfTestResult r = loopback(options(TestKind.WRITE_LAT).loopback(true).build());
        LatencyResult lat = r.latency().getFirst();
        assertEquals(2, lat.sizeBytes());
        assertEquals(200, lat.iterations());
        assertTrue(lat.minUs() > 0 && lat.minUs() <= lat.typicalUs() && lat.typicalUs() <= lat.maxUs(), lat.toString());
        assertTrue(lat.p99Us() >= lat.typicalUs(), lat.toString());
    }

    @Test
    void allSizesRunsEverySizeFromTwoBytesToEightMegabytes() {
        PerfTestResult r = loopback(options(TestKind.WRITE_BW).allSizes(true).iterations(5).loopback(true).build());
        List<Long> sizes = r.bandwidth().stream().map(BandwidthResult::sizeBytes).toList();
        List<Long> expected = new ArrayList<>();
        for (int i = 1; i <= 23; i++) {
            expected.add(1L << i);
        }
        assertEquals(expected, sizes);
        assertTrue(r.bandwidth().stream().allMatch(b -> b.average() > 0));
    }

    @Test
    void twoQpsCountIterationsPerQp() {
        PerfTestResult r = loopback(options(TestKind.WRITE_BW).numQps(2).loopback(true).build());
        assertEquals(2, r.local().size());
        assertEquals(2, r.remote().size());
        assertEquals(400, r.bandwidth().getFirst().iterations());
    }

    @Test
    void durationModeCountsWhatCompletedInTheWindow() {
        PerfTestResult r = loopback(TestOptions.builder(TestKind.WRITE_BW).device(CLIENT_DEV).durationSeconds(3)
                .loopback(true).build());
        BandwidthResult bw = r.bandwidth().getFirst();
        assertTrue(bw.iterations() > 0 && bw.average() > 0, bw.toString());
        assertEquals(0.0, bw.peak(), "perftest prints no peak for -D");
    }

    @Test
    void bidirectionalAddsThePeersFigures() {
        PerfTestResult r = loopback(options(TestKind.WRITE_BW).bidirectional(true).loopback(true).build());
        BandwidthResult bw = r.bandwidth().getFirst();
        assertTrue(bw.average() > 0, bw.toString());
        assertEquals(200, bw.iterations());
    }

    @Test
    void aParameterMismatchIsRefusedOnBothEnds() throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).device(SERVER_DEV).port(port).size(4096)
                .iterations(200).build();
        CompletableFuture<PerfTestResult> serving = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).settleDelay(Duration.ZERO).run());
        TestOptions client = options(TestKind.WRITE_BW).port(port).serverHost(serverIp).build();
        TestFailedException c = assertThrows(TestFailedException.class,
                () -> PerfTest.of(client).timeout(TIMEOUT).settleDelay(Duration.ZERO).run());
        assertTrue(c.getMessage().contains("-s/--size: local 65536, remote 4096"), c.getMessage());
        ExecutionException s = assertThrows(ExecutionException.class, () -> serving.get(60, TimeUnit.SECONDS));
        assertTrue(s.getCause().getMessage().contains("-s/--size: local 4096, remote 65536"), s.getCause().getMessage());
    }

    @Test
    void jperfClientAgainstDebiansIbWriteBwServer() throws Exception {
        int port = LabEnds.freePort();
        Process perftest = perftest("ib_write_bw", SERVER_DEV, serverGid, port, null);
        PerfTestResult r = PerfTest.of(options(TestKind.WRITE_BW).port(port).serverHost(serverIp).build())
                .timeout(TIMEOUT).run();
        assertTrue(r.bandwidth().getFirst().average() > 0);
        assertTrue(r.peerVersion().startsWith("6.06"), r.peerVersion());
        assertTrue(r.path().orElseThrow().peer().isEmpty(), "perftest sends no path record");
        assertEquals(0, finish(perftest), "ib_write_bw server exit status");
    }

    @Test
    void jperfClientAgainstDebiansIbWriteLatServer() throws Exception {
        int port = LabEnds.freePort();
        Process perftest = perftest("ib_write_lat", SERVER_DEV, serverGid, port, null);
        PerfTestResult r = PerfTest.of(options(TestKind.WRITE_LAT).port(port).serverHost(serverIp).build())
                .timeout(TIMEOUT).run();
        assertEquals(200, r.latency().getFirst().iterations());
        assertTrue(r.latency().getFirst().typicalUs() > 0);
        assertEquals(0, finish(perftest), "ib_write_lat server exit status");
    }

    @Test
    void debiansIbWriteBwClientAgainstAJperfServer() throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).device(SERVER_DEV).port(port).iterations(200).build();
        CompletableFuture<PerfTestResult> serving = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).run());
        LabEnds.awaitListening(port, Duration.ofSeconds(30));
        Process perftest = perftest("ib_write_bw", CLIENT_DEV, clientGid, port, serverIp);
        String out = new String(perftest.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, finish(perftest), "ib_write_bw client exit status:\n" + out);
        PerfTestResult r = serving.get(60, TimeUnit.SECONDS);
        BandwidthResult report = r.bandwidth().getFirst();
        assertEquals(65536, report.sizeBytes(), "the server prints the client's report");
        assertEquals(200, report.iterations());
    }

    @Test
    void debiansIbWriteLatClientAgainstAJperfServer() throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.WRITE_LAT).device(SERVER_DEV).port(port).iterations(200).build();
        CompletableFuture<PerfTestResult> serving = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).run());
        LabEnds.awaitListening(port, Duration.ofSeconds(30));
        Process perftest = perftest("ib_write_lat", CLIENT_DEV, clientGid, port, serverIp);
        String out = new String(perftest.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, finish(perftest), "ib_write_lat client exit status:\n" + out);
        PerfTestResult r = serving.get(60, TimeUnit.SECONDS);
        assertEquals(200, r.latency().getFirst().iterations());
        assertTrue(r.latency().getFirst().typicalUs() > 0);
    }

    private static Process perftest(String program, String device, int gid, int port, String server) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(program, "-d", device, "-x", Integer.toString(gid), "-F", "-n", "200",
                "-p", Integer.toString(port)));
        if (server != null) {
            cmd.add(server);
        }
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static int finish(Process p) throws InterruptedException {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

}
