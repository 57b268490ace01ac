package io.jperf.lab;

import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.EndpointInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #25's memory flags on real rxe devices: {@code --mr_per_qp} gives each QP its own region, whose
 * keys the peer uses (jperf against jperf, and Debian's ib_write_bw 6.06 as the server), and
 * {@code --use_hugepages} moves data from huge pages when the guest has some reserved. Function only.
 */
@Tag("lab")
class LabMemoryFlagsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Path NR_HUGEPAGES = Path.of("/proc/sys/vm/nr_hugepages");
    private static LabEnds ends;

    @BeforeAll
    static void findTheLabEnds() {
        ends = LabEnds.find();
    }

    @Test
    void eachQpOfAnMrPerQpRunHasItsOwnRegionAndThePeerWritesThroughIt() throws Exception {
        int port = LabEnds.freePort();
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).device(ends.serverDevice()).port(port)
                .numQps(2).mrPerQp(true).iterations(200).build();
        CompletableFuture<PerfTestResult> serving = CompletableFuture.supplyAsync(
                () -> PerfTest.of(server).timeout(TIMEOUT).settleDelay(Duration.ZERO).run());
        LabEnds.awaitListening(port, TIMEOUT);
        PerfTestResult client = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).device(ends.clientDevice())
                        .port(port).serverHost(ends.serverIp()).numQps(2).mrPerQp(true).iterations(200).build())
                .timeout(TIMEOUT).settleDelay(Duration.ZERO).run();
        PerfTestResult served = serving.get(120, TimeUnit.SECONDS);
        assertOwnRegions(client.local());
        assertOwnRegions(served.local());
        assertEquals(keys(served.local()), keys(client.remote()), "the client writes through the keys the server sent");
        assertTrue(client.bandwidth().getFirst().average() > 0, client.bandwidth().toString());
    }

    @Test
    void perftestAsTheServerTakesAJperfClientsPerQpRegions() throws Exception {
        int port = LabEnds.freePort();
        Process perftest = new ProcessBuilder("ib_write_bw", "-d", ends.serverDevice(), "-x",
                Integer.toString(ends.serverGid()), "-p", Integer.toString(port), "-q", "2", "--mr_per_qp", "-n", "200", "-F")
                .redirectErrorStream(true).start();
        try {
            LabEnds.awaitListening(port, TIMEOUT);
            PerfTestResult client = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).device(ends.clientDevice())
                            .gidIndex(ends.clientGid()).port(port).serverHost(ends.serverIp()).numQps(2).mrPerQp(true)
                            .iterations(200).build())
                    .timeout(TIMEOUT).settleDelay(Duration.ZERO).run();
            assertTrue(perftest.waitFor(60, TimeUnit.SECONDS), "ib_write_bw did not end after the client");
            String out = new String(perftest.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, perftest.exitValue(), out);
            assertOwnRegions(client.local());
            assertNotEquals(client.remote().get(0).rkey(), client.remote().get(1).rkey(),
                    "ib_write_bw --mr_per_qp sends a key per QP: " + client.remote());
            assertTrue(out.lines().anyMatch(l -> l.trim().startsWith("65536") && l.trim().split("\\s+")[1].equals("400")),
                    "perftest's result row (2 QPs x 200):\n" + out);
        } finally {
            perftest.destroyForcibly();
        }
    }

    @Test
    void aRunOnHugePagesMovesItsData() throws Exception {
        String before = Files.readString(NR_HUGEPAGES).trim();
        Files.writeString(NR_HUGEPAGES, "16");
        try {
            assertTrue(hugePagesFree() >= 2, "the guest reserved no huge pages: " + hugePagesFree());
            PerfTestResult r = PerfTest.of(TestOptions.builder(TestKind.WRITE_BW).device(ends.clientDevice())
                            .hugePages(true).iterations(200).loopback(true).build())
                    .timeout(TIMEOUT).settleDelay(Duration.ZERO).runLoopback(ends.serverDevice());
            assertTrue(r.bandwidth().getFirst().average() > 0, r.bandwidth().toString());
        } finally {
            Files.writeString(NR_HUGEPAGES, before);
        }
    }

    private static void assertOwnRegions(List<EndpointInfo> local) {
        assertEquals(2, local.size(), local.toString());
        assertNotEquals(local.get(0).rkey(), local.get(1).rkey(), "one region per QP: " + local);
    }

    /** What the key exchange carries per QP (the peer's GID index does not travel: -1 on the receiving side). */
    private static List<String> keys(List<EndpointInfo> ends) {
        return ends.stream().map(e -> e.qpn() + "/" + e.rkey() + "/" + e.vaddr()).toList();
    }

    private static long hugePagesFree() throws IOException {
        return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("HugePages_Free:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(0);
    }
}
