package io.jperf.lab;

import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A send-bw sender's JIT warm-up on real rxe devices: it runs on QPs connected to themselves (RDMA WRITEs from
 * the client's send slice into its own receive slice), so the receiver, which counts every message as
 * perftest's does, gets the test's messages only, while the client's port receives the warm-up's packets
 * (rxe counts a loopback packet in the port's {@code rcvd_pkts}). Function only, never timing.
 */
@Tag("lab")
class LabSendWarmupTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final int MESSAGES = 200;

    @Test
    void theSenderWarmsUpOnItselfAndTheReceiverCountsOnlyTheTestsMessages() throws Exception {
        LabEnds ends = LabEnds.find();
        long withoutWarmup = clientPortReceives(ends, Duration.ZERO);
        long withWarmup = clientPortReceives(ends, Duration.ofSeconds(2));
        // 2 s of 64 KiB writes at the lab's slowest (~0.05 Gb/s) are ~3000 packets of 4 KiB; the test itself
        // brings the client only the receiver's ACKs, in both runs
        assertTrue(withWarmup > withoutWarmup + 1000, "packets the client's port received: " + withWarmup
                + " with a 2 s warm-up, " + withoutWarmup + " without");
    }

    /** One send-bw run, jperf server on rxe0, client on rxe1: the packets rxe1's port received meanwhile. */
    private static long clientPortReceives(LabEnds ends, Duration warmup) throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.SEND_BW).device(ends.serverDevice()).port(port)
                .iterations(MESSAGES).build();
        CompletableFuture<PerfTestResult> receiver = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).run());
        LabEnds.awaitListening(port, TIMEOUT);
        long before = receivedPackets(ends.clientDevice());
        PerfTestResult sent = PerfTest.of(TestOptions.builder(TestKind.SEND_BW).device(ends.clientDevice()).port(port)
                        .iterations(MESSAGES).serverHost(ends.serverIp()).build())
                .timeout(TIMEOUT).warmup(warmup).run();
        long received = receivedPackets(ends.clientDevice()) - before;
        PerfTestResult got = receiver.get(TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
        assertEquals(MESSAGES, sent.bandwidth().getFirst().iterations(), "messages sent");
        assertEquals(MESSAGES, got.bandwidth().getFirst().iterations(),
                "the receiver counted the test's messages, no warm-up message (warm-up " + warmup + ")");
        return received;
    }

    private static long receivedPackets(String device) throws IOException {
        return Long.parseLong(Files.readString(
                Path.of("/sys/class/infiniband", device, "ports/1/hw_counters/rcvd_pkts")).strip());
    }
}
