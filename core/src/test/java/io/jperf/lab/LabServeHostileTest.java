package io.jperf.lab;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.ServeClient;
import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Rdma;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jperf serve} (the real command, its own JVM, started as a user would with the launcher)
 * under a bounded hostile mix in the guest: unauthenticated and wrong-secret clients, requests over
 * the budget, a GID of another host, slow and silent clients, raw garbage. Hostile traffic goes
 * only to this guest's own addresses. Then a correct client (write-bw and write-lat over rxe1 ->
 * rxe0) is still served, {@code rdma resource show} is back to its baseline, and the server's peak
 * memory grew by less than its --max-memory.
 */
@Tag("lab")
class LabServeHostileTest {
    private static final String SERVER_DEV = "rxe0";
    private static final String CLIENT_DEV = "rxe1";
    /** The request deadline is then 10 s (JperfServer.REQUEST_TIME): room for a cold JVM in the emulated lab. */
    private static final int TIMEOUT_S = 15;
    private static final int REQUEST_S = 10;
    private static final int MAX_DURATION_S = 20;
    private static final long MAX_MEMORY = 64L << 20;
    private static final String SECRET = "lab-shared-secret-0123456789";
    /** A fixed, fully touched heap, so that what grows under the mix is the test allocations, not the heap's sizing. */
    private static final String SERVER_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms160m -Xmx160m -XX:+AlwaysPreTouch";

    @Test
    void aHostileMixLeavesTheServerServingWithinItsBudgetAndTheDevicesClean() throws Exception {
        String repo = System.getenv("LAB_REPO");
        assertNotNull(repo, "LAB_REPO (set by lab/rdma-lab) locates the jperf launcher");
        GidEntry serverGid;
        try (Context ctx = Rdma.open(SERVER_DEV)) {
            serverGid = GidSelection.perftestDefault(ctx.queryPort(1)).orElseThrow();
        }
        String serverIp = serverGid.ipAddress().orElseThrow().getHostAddress();
        Map<String, String> baseline = LabDevices.resourceCounts();
        Path dir = Files.createTempDirectory("jperf-serve-hostile");
        Path token = dir.resolve("token");
        Files.writeString(token, SECRET + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        AuthSecret secret = AuthSecret.of(SECRET, "test");
        int port = LabEnds.freePort();

        ProcessBuilder pb = new ProcessBuilder(Path.of(repo, "jperf").toString(), "serve", "-p", Integer.toString(port),
                "-d", SERVER_DEV, "--timeout", Integer.toString(TIMEOUT_S), "--max-duration", Integer.toString(MAX_DURATION_S),
                "--max-memory", "64M", "--auth-token-file", token.toString(), "--warmup", "0")
                .redirectErrorStream(true).redirectOutput(dir.resolve("serve.log").toFile());
        pb.environment().put("JPERF_JAVA_OPTS", SERVER_JVM + " -XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"));
        Process serve = pb.start();
        Counts counts = new Counts();
        try {
            String start = awaitLine(dir.resolve("serve.log"), "listening on", Duration.ofSeconds(120), serve);
            assertTrue(start.contains("clients must prove the shared secret"), start);
            assertTrue(start.contains("RDMA traffic only to each client's own address"), start);

            // warm up with one correct client, then take the memory baseline
            PerfTestResult first = client(TestKind.WRITE_BW, port, serverIp, secret).run();
            assertTrue(first.bandwidth().getFirst().average() > 0);
            long baseRss = kib(serve.pid(), "VmRSS");

            hostileMix(port, serverIp, secret, counts);

            PerfTestResult bw = client(TestKind.WRITE_BW, port, serverIp, secret).run();
            assertTrue(bw.bandwidth().getFirst().average() > 0, "a correct client is served after the mix");
            PerfTestResult lat = client(TestKind.WRITE_LAT, port, serverIp, secret).run();
            assertTrue(lat.latency().getFirst().typicalUs() > 0);
            assertTrue(serve.isAlive(), "the server is still running");

            long peak = kib(serve.pid(), "VmHWM");
            String memory = String.format("server RSS after warm-up %d KiB, peak %d KiB, growth %d KiB (--max-memory %d KiB)",
                    baseRss, peak, peak - baseRss, MAX_MEMORY >> 10);
            System.out.println("LabServeHostileTest: " + counts + "; " + memory);
            Files.writeString(resultsFile(), counts + "\n" + memory + "\n");
            assertTrue((peak - baseRss) * 1024 <= MAX_MEMORY, memory);
        } finally {
            serve.destroy();
            if (!serve.waitFor(20, TimeUnit.SECONDS)) {
                serve.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            System.out.println("--- jperf serve output:\n" + Files.readString(dir.resolve("serve.log")));
        }
        assertEquals(baseline, awaitCounts(baseline), "rdma resource show is back to its baseline");
    }

    /** Every hostile class, bounded in count and time, against this guest's own addresses. */
    private static void hostileMix(int port, String serverIp, AuthSecret secret, Counts counts) throws Exception {
        String[] hosts = {"127.0.0.1", serverIp};
        // unauthenticated and wrong secret: refused before the request is read
        for (int i = 0; i < 20; i++) {
            final int n = i;
            String r = refusal(counts, () -> ServeClient.ask(hosts[n % 2], port, ServeClient.smallRequest(), Optional.empty()));
            assertTrue(r != null && r.contains("requires authentication"), r);
            counts.unauthenticated++;
        }
        for (int i = 0; i < 10; i++) {
            final int n = i;
            String r = refusal(counts, () -> ServeClient.ask(hosts[n % 2], port, ServeClient.smallRequest(),
                    Optional.of(AuthSecret.of("not-the-secret-" + n + "-0123456789", "test"))));
            assertTrue(r != null && r.contains("authentication failed"), r);
            counts.wrongSecret++;
        }
        // over the budget: the products of the issue, each refused in one line before any allocation
        List<Supplier<TestOptions>> oversized = List.of(
                () -> TestOptions.builder(TestKind.WRITE_BW).serverHost("x").size(Integer.MAX_VALUE).numQps(4).build(),
                () -> TestOptions.builder(TestKind.WRITE_BW).serverHost("x").allSizes(true).numQps(64).build(),
                () -> TestOptions.builder(TestKind.WRITE_BW).serverHost("x").size(65536).numQps(16384).txDepth(15000).build(),
                () -> TestOptions.builder(TestKind.WRITE_LAT).serverHost("x").size(2).iterations(100_000_000).build(),
                () -> TestOptions.builder(TestKind.WRITE_BW).serverHost("x").size(1 << 20).iterations(100_000_000).build(),
                () -> TestOptions.builder(TestKind.WRITE_BW).serverHost("x").durationSeconds(3600).build());
        for (int i = 0; i < 30; i++) {
            final int n = i;
            String r = refusal(counts, () -> ServeClient.ask(hosts[n % 2], port,
                    ServeClient.request(oversized.get(n % oversized.size()).get(), null), Optional.of(secret)));
            assertTrue(r != null && r.contains("over this server's budget") && !r.contains("\n"), r);
            counts.oversized++;
        }
        // a GID of another host (TEST-NET-1): the server would send there; refused before allocating
        byte[] foreign = HexFormat.of().parseHex("00000000000000000000ffffc0000201");
        for (int i = 0; i < 10; i++) {
            final int n = i;
            String r = refusal(counts, () -> ServeClient.ask(hosts[n % 2], port, ServeClient.request(
                    TestOptions.builder(TestKind.WRITE_BW).serverHost("x").size(4096).build(), foreign), Optional.of(secret)));
            assertTrue(r != null && r.contains("192.0.2.1"), r);
            counts.wrongGid++;
        }
        // raw garbage and abrupt closes
        for (int i = 0; i < 20; i++) {
            try (Socket s = new Socket(hosts[i % 2], port)) {
                byte[] junk = new byte[1 + i * 37];
                new java.util.Random(i).nextBytes(junk);
                s.getOutputStream().write(junk);
                s.shutdownOutput();
                s.setSoTimeout(30_000);
                s.getInputStream().readAllBytes();
            }
            counts.garbage++;
        }
        // slow (one byte just inside each read timeout) and silent clients: each dropped at the exchange
        // deadline; while one holds the server, a correct client hears "busy" at once
        for (int i = 0; i < 2; i++) {
            try (Socket slow = new Socket(serverIp, port)) {
                long t0 = System.nanoTime();
                CompletableFuture<Void> trickle = CompletableFuture.runAsync(() -> trickle(slow));
                Thread.sleep(1500);
                TestFailedException busy = assertThrows(TestFailedException.class,
                        () -> client(TestKind.WRITE_BW, port, serverIp, secret).run());
                assertTrue(busy.getMessage().contains("busy"), busy.getMessage());
                counts.busy++;
                slow.setSoTimeout((TIMEOUT_S + 20) * 1000);
                assertEquals(-1, slow.getInputStream().read(), "the server hangs up on a slow client");
                counts.slowDroppedAfterMs.add((System.nanoTime() - t0) / 1_000_000);
                trickle.get(TIMEOUT_S + 20, TimeUnit.SECONDS);
            }
            counts.slow++;
        }
        for (int i = 0; i < 2; i++) {
            long t0 = System.nanoTime();
            try (Socket silent = new Socket(hosts[i % 2], port)) {
                silent.setSoTimeout((TIMEOUT_S + 20) * 1000);
                assertEquals(-1, silent.getInputStream().read(), "the server hangs up on a silent client");
            }
            counts.silentDroppedAfterMs.add((System.nanoTime() - t0) / 1_000_000);
            counts.silent++;
        }
        for (long ms : counts.slowDroppedAfterMs) {
            assertTrue(ms < (REQUEST_S + 5) * 1000L, "a slow client held the server for " + ms + " ms");
        }
        for (long ms : counts.silentDroppedAfterMs) {
            assertTrue(ms < (REQUEST_S + 5) * 1000L, "a silent client held the server for " + ms + " ms");
        }
    }

    /** A request the helper can send again. */
    private interface Ask {
        Map<String, String> ask() throws IOException;
    }

    /**
     * The server's refusal; "busy" (the previous client's session is still being cleaned up, slow
     * under emulation) is counted and the request sent again after a second, at most 10 times.
     */
    private static String refusal(Counts counts, Ask ask) throws Exception {
        for (int i = 0; ; i++) {
            Map<String, String> answer = ask.ask();
            if (!"true".equals(answer.get("serve.busy")) || i == 10) {
                return ServeClient.refusal(answer);
            }
            counts.busyRetries++;
            Thread.sleep(1000);
        }
    }

    /** Sends a version message one byte every (timeout - 2) s until the server hangs up. */
    private static void trickle(Socket s) {
        try {
            OutputStream out = s.getOutputStream();
            for (byte b : "6.06 jperf\0\0\0\0\0\0".getBytes(StandardCharsets.US_ASCII)) {
                out.write(b);
                out.flush();
                Thread.sleep((TIMEOUT_S - 2) * 1000L);
            }
        } catch (IOException | InterruptedException e) {
            // the server hung up: the point
        }
    }

    private static PerfTest client(TestKind kind, int port, String serverIp, AuthSecret secret) {
        return PerfTest.of(TestOptions.builder(kind).device(CLIENT_DEV).iterations(200).serverHost(serverIp).port(port)
                .build()).timeout(Duration.ofSeconds(60)).settleDelay(Duration.ZERO).warmup(Duration.ZERO).authSecret(secret);
    }

    private static final class Counts {
        int unauthenticated;
        int wrongSecret;
        int oversized;
        int wrongGid;
        int garbage;
        int slow;
        int silent;
        int busy;
        int busyRetries;
        final List<Long> slowDroppedAfterMs = new ArrayList<>();
        final List<Long> silentDroppedAfterMs = new ArrayList<>();

        @Override
        public String toString() {
            return "hostile cases: unauthenticated " + unauthenticated + ", wrong secret " + wrongSecret + ", over budget "
                    + oversized + ", wrong GID " + wrongGid + ", garbage " + garbage + ", slow " + slow + " (dropped after "
                    + slowDroppedAfterMs + " ms), silent " + silent + " (dropped after " + silentDroppedAfterMs
                    + " ms), busy answers " + busy + " (and " + busyRetries + " to hostile clients, sent again); crashes 0,"
                    + " hangs 0";
        }
    }

    private static long kib(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
            }
        }
        throw new IOException(field + " not in /proc/" + pid + "/status");
    }

    private static String awaitLine(Path log, String text, Duration wait, Process p) throws Exception {
        long end = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < end) {
            if (Files.exists(log)) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(log),
                        StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        if (line.contains(text)) {
                            return line;
                        }
                    }
                }
            }
            if (!p.isAlive()) {
                throw new AssertionError("jperf serve exited (" + p.exitValue() + "): " + Files.readString(log));
            }
            Thread.sleep(250);
        }
        throw new AssertionError("jperf serve did not say '" + text + "' within " + wait);
    }

    /** The counts settle once the server's process is gone; waits a little for the kernel to release them. */
    private static Map<String, String> awaitCounts(Map<String, String> baseline) throws Exception {
        Map<String, String> now = LabDevices.resourceCounts();
        for (int i = 0; i < 20 && !now.equals(baseline); i++) {
            Thread.sleep(500);
            now = LabDevices.resourceCounts();
        }
        return now;
    }

    private static Path resultsFile() throws IOException {
        String results = System.getenv("LAB_RESULTS");
        Path dir = results != null ? Path.of(results) : Files.createTempDirectory("jperf-lab");
        return dir.resolve("serve-hostile.txt");
    }

}
