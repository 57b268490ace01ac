package io.jperf.lab;

import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.LatencyResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A jperf latency client against Debian's perftest server of the same test, on real rxe devices. perftest takes
 * no part in a warm-up and measures from its first round, so jperf warms its loop up alone before the last
 * synchronisation: a ping-pong (write-lat, send-lat) on a QP connected to itself, whose messages land in the
 * client's own receive slice through the client's port (rxe counts a loopback packet, and its ACK, in
 * {@code rcvd_pkts}); a requester loop (read-lat, atomic-lat) on the test's QP, whose responses come back from the
 * server's port. Either way the client's port receives more packets with a warm-up than without, and both ends
 * still measure exactly the test's rounds. Function only, never timing.
 */
@Tag("lab")
class LabLatencySelfWarmupTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final int ITERATIONS = 200;
    /** The warm-up's least rounds: one run of the loop. */
    private static final int WARMUP_ROUNDS = 256;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = TestKind.class, names = {"WRITE_LAT", "SEND_LAT", "READ_LAT", "ATOMIC_LAT"})
    void againstPerftestTheClientWarmsUpAloneAndBothEndsMeasureTheTestsRounds(TestKind kind) throws Exception {
        Path binary = Path.of("/usr/bin/ib_" + kind.commandName().replace('-', '_'));
        if (!Files.isExecutable(binary)) {
            fail(binary + " is missing: the lab guest has Debian's perftest package");
        }
        LabEnds ends = LabEnds.find();
        long withoutWarmup = clientPortReceives(binary, kind, ends, Duration.ZERO);
        long withWarmup = clientPortReceives(binary, kind, ends, Duration.ofSeconds(1));
        // the test itself brings the client the same packets in both runs; a ping-pong's warm-up round on itself is
        // a message and its ACK received by the client's port, a requester's the response from the server's port
        int packetsPerRound = kind.verb().latencyIsPingPong() ? 2 : 1;
        assertTrue(withWarmup > withoutWarmup + (long) packetsPerRound * WARMUP_ROUNDS, "packets the client's port"
                + " received: " + withWarmup + " with a 1 s warm-up, " + withoutWarmup + " without");
    }

    /** One run, perftest server on rxe0, jperf client on rxe1: the packets rxe1's port received meanwhile. */
    private static long clientPortReceives(Path binary, TestKind kind, LabEnds ends, Duration warmup) throws Exception {
        boolean sized = !kind.verb().isAtomic();
        int port = LabEnds.freePort();
        Path log = Files.createTempFile(binary.getFileName() + "-", ".txt");
        List<String> command = new ArrayList<>(List.of(binary.toString(), "-d", ends.serverDevice(), "-x",
                Integer.toString(ends.serverGid()), "-F", "-n", Integer.toString(ITERATIONS), "-p",
                Integer.toString(port)));
        if (sized) {
            command.addAll(List.of("-s", "2"));
        }
        Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            LabEnds.awaitListening(port, TIMEOUT);
            long before = receivedPackets(ends.clientDevice());
            TestOptions.Builder options = TestOptions.builder(kind).device(ends.clientDevice()).port(port)
                    .iterations(ITERATIONS).serverHost(ends.serverIp());
            if (sized) {
                options.size(2);
            }
            PerfTestResult result = PerfTest.of(options.build()).timeout(TIMEOUT).warmup(warmup).run();
            long received = receivedPackets(ends.clientDevice()) - before;
            assertTrue(server.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS), binary + " did not end");
            String out = Files.readString(log);
            assertEquals(0, server.exitValue(), binary + " failed (warm-up " + warmup + "):\n" + out);
            LatencyResult ours = result.latency().getFirst();
            if (kind.verb().latencyIsPingPong()) {
                // both ends of a ping-pong measure, perftest from its first round on
                assertTrue(out.lines().anyMatch(l -> l.trim().matches(ours.sizeBytes() + "\\s+" + ITERATIONS + "\\s+.*")),
                        "perftest reports the test's " + ITERATIONS + " rounds (warm-up " + warmup + "):\n" + out);
            }
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
