package io.jperf.lab;

import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.engine.StopSignal;
import io.jperf.engine.TestListener;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.stats.LatencySamples;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #25's report flags on real rxe devices, jperf against jperf: the samples -H/-U print, both sides of
 * --report-both, every size's report reaching an -a server, and --run_infinitely stopped by its signal.
 * Function only, never timing.
 */
@Tag("lab")
class LabReportFlagsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static LabEnds ends;

    @BeforeAll
    static void findTheLabEnds() {
        ends = LabEnds.find();
    }

    @Test
    void theLatencySamplesAreEveryRoundOfTheRun() {
        List<double[]> unsorted = new ArrayList<>();
        List<double[]> sorted = new ArrayList<>();
        TestListener listener = new TestListener() {
            @Override
            public void latencySamples(long sizeBytes, LatencySamples samples) {
                unsorted.add(samples.unsortedUs());
                sorted.add(samples.sortedKeptUs());
            }
        };
        PerfTestResult r = PerfTest.of(TestOptions.builder(TestKind.WRITE_LAT).device(ends.clientDevice())
                        .iterations(100).loopback(true).build())
                .timeout(TIMEOUT).settleDelay(Duration.ZERO).listener(listener).runLoopback(ends.serverDevice());
        assertEquals(1, unsorted.size());
        assertEquals(99, unsorted.getFirst().length, "iterations - 1 round trips, as perftest");
        assertEquals(97, sorted.getFirst().length, "without the 2 largest");
        assertEquals(r.latency().getFirst().minUs(), sorted.getFirst()[0], 1e-9);
        for (int i = 1; i < sorted.getFirst().length; i++) {
            assertTrue(sorted.getFirst()[i] >= sorted.getFirst()[i - 1]);
        }
    }

    @Test
    void reportBothHasEachSideAndTheirSumIsTheRow() {
        List<BandwidthResult> parts = new ArrayList<>();
        TestListener listener = new TestListener() {
            @Override
            public void bandwidthParts(BandwidthResult local, BandwidthResult remote) {
                parts.add(local);
                parts.add(remote);
            }
        };
        PerfTestResult r = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).device(ends.clientDevice())
                        .iterations(200).bidirectional(true).loopback(true).build())
                .timeout(TIMEOUT).settleDelay(Duration.ZERO).listener(listener).runLoopback(ends.serverDevice());
        assertEquals(2, parts.size());
        assertTrue(parts.get(0).average() > 0 && parts.get(1).average() > 0, parts.toString());
        assertEquals(parts.get(0).average() + parts.get(1).average(), r.bandwidth().getFirst().average(), 1e-9);
    }

    @Test
    void anAllSizesServerHearsEverySizeFromAJperfClient() throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).device(ends.serverDevice()).port(port)
                .allSizes(true).iterations(20).build();
        CompletableFuture<PerfTestResult> serving = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).settleDelay(Duration.ZERO).run());
        LabEnds.awaitListening(port, TIMEOUT);
        PerfTestResult client = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).device(ends.clientDevice())
                        .port(port).serverHost(ends.serverIp()).allSizes(true).iterations(20).build())
                .timeout(TIMEOUT).settleDelay(Duration.ZERO).warmup(Duration.ZERO).run();
        PerfTestResult served = serving.get(120, TimeUnit.SECONDS);
        assertEquals(23, client.bandwidth().size());
        assertEquals(client.bandwidth(), served.bandwidth(), "the server holds every size the client measured");
    }

    @Test
    void runInfinitelyPrintsIntervalsUntilStoppedThenTheWholeRun() throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).device(ends.serverDevice()).port(port)
                .runInfinitely(true).durationSeconds(1).build();
        List<BandwidthResult> serverEnd = new ArrayList<>();
        CompletableFuture<PerfTestResult> serving = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).settleDelay(Duration.ZERO).listener(new TestListener() {
                    @Override
                    public void runStopped(BandwidthResult whole, long elapsedNanos, String why) {
                        serverEnd.add(whole);
                    }
                }).run());
        LabEnds.awaitListening(port, TIMEOUT);
        StopSignal stop = new StopSignal();
        List<BandwidthResult> rows = new ArrayList<>();
        List<BandwidthResult> clientEnd = new ArrayList<>();
        TestListener listener = new TestListener() {
            @Override
            public void bandwidth(BandwidthResult result) {
                rows.add(result);
                if (rows.size() == 3) {
                    stop.request("test");
                }
            }

            @Override
            public void runStopped(BandwidthResult whole, long elapsedNanos, String why) {
                clientEnd.add(whole);
                assertEquals("test", why);
            }
        };
        PerfTestResult client = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).device(ends.clientDevice())
                        .port(port).serverHost(ends.serverIp()).runInfinitely(true).durationSeconds(1).build())
                .timeout(TIMEOUT).settleDelay(Duration.ZERO).warmup(Duration.ZERO).listener(listener).stopSignal(stop)
                .run();
        PerfTestResult served = serving.get(60, TimeUnit.SECONDS);
        assertEquals(3, rows.size(), rows.toString());
        rows.forEach(row -> assertTrue(row.average() > 0 && row.peak() == 0, row.toString()));
        assertEquals(1, clientEnd.size());
        BandwidthResult whole = client.bandwidth().getFirst();
        assertEquals(clientEnd.getFirst(), whole);
        assertTrue(whole.iterations() >= rows.stream().mapToLong(BandwidthResult::iterations).sum(),
                whole + " vs " + rows);
        assertNotNull(serverEnd.getFirst(), "a jperf client reports its whole run");
        assertEquals(whole, served.bandwidth().getFirst());
    }
}
