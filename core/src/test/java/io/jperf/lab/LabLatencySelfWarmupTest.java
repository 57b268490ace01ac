package io.jperf.lab;

import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.LatencyResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A jperf write-lat client against Debian's perftest {@code ib_write_lat} server, on real rxe devices: perftest
 * takes no part in a warm-up, so jperf warms its loop up on a QP connected to itself before the first
 * synchronisation. Its writes land in the client's own receive slice through the client's port (rxe counts a
 * loopback packet in {@code rcvd_pkts}), and perftest, which measures from its first round, still sees exactly
 * the test's rounds. Function only, never timing.
 */
@Tag("lab")
class LabLatencySelfWarmupTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int ITERATIONS = 200;
    private static final String IB_WRITE_LAT = "/usr/bin/ib_write_lat";

    @Test
    void againstPerftestTheClientWarmsUpOnItselfAndBothEndsMeasureTheTestsRounds() throws Exception {
        if (!Files.isExecutable(Path.of(IB_WRITE_LAT))) {
            fail(IB_WRITE_LAT + " is missing: the lab guest has Debian's perftest package");
        }
        LabEnds ends = LabEnds.find();
        long withoutWarmup = clientPortReceives(ends, Duration.ZERO);
        long withWarmup = clientPortReceives(ends, Duration.ofSeconds(1));
        // the test itself brings the client the server's 200 writes and the ACKs of its own, in both runs; the
        // warm-up runs at least 256 self-writes, each a write and its ACK received by the client's port
        assertTrue(withWarmup > withoutWarmup + 2 * 256, "packets the client's port"
                + " received: " + withWarmup + " with a 1 s warm-up, " + withoutWarmup + " without");
    }

    /** One write-lat run, perftest server on rxe0, jperf client on rxe1: the packets rxe1's port received meanwhile. */
    private static long clientPortReceives(LabEnds ends, Duration warmup) throws Exception {
        int port = LabEnds.freePort();
        Path log = Files.createTempFile("ib_write_lat-", ".txt");
        Process server = new ProcessBuilder(List.of(IB_WRITE_LAT, "-d", ends.serverDevice(), "-x",
                Integer.toString(ends.serverGid()), "-F", "-s", "2", "-n", Integer.toString(ITERATIONS), "-p",
                Integer.toString(port))).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            LabEnds.awaitListening(port, TIMEOUT);
            long before = receivedPackets(ends.clientDevice());
            PerfTestResult result = PerfTest.of(TestOptions.builder(TestKind.WRITE_LAT).device(ends.clientDevice())
                            .port(port).size(2).iterations(ITERATIONS).serverHost(ends.serverIp()).build())
                    .timeout(TIMEOUT).warmup(warmup).run();
            long received = receivedPackets(ends.clientDevice()) - before;
            assertTrue(server.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "ib_write_lat did not end");
            String out = Files.readString(log);
            assertEquals(0, server.exitValue(), "ib_write_lat failed (warm-up " + warmup + "):\n" + out);
            assertTrue(out.lines().anyMatch(l -> l.trim().matches("2\\s+" + ITERATIONS + "\\s+.*")),
                    "perftest reports the test's " + ITERATIONS + " rounds of 2 bytes (warm-up " + warmup + "):\n" + out);
            LatencyResult ours = result.latency().getFirst();
            assertEquals(ITERATIONS, ours.iterations(), "jperf's rounds");
            assertTrue(ours.typicalUs() > 0, "a measured latency: " + ours);
            return received;
        } finally {
            server.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    private static long receivedPackets(String device) throws IOException {
        return Long.parseLong(Files.readString(
                Path.of("/sys/class/infiniband", device, "ports/1/hw_counters/rcvd_pkts")).strip());
    }
}
