package io.jperf.cli;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #25 on real rxe devices (lab tier): the perftest flags added to the command line take effect
 * (-N, -w, -f), and examples/embedded runs its loopback test on the module path. Function only, never timing.
 */
@Tag("lab")
class LabOutputsTest {
    private static final String[] LOOPBACK = {"--loopback", "-d", "rxe1", "--peer-dev", "rxe0", "--timeout", "60"};

    private static CliRunner jperf(String command, String... args) {
        String[] all = Stream.concat(Stream.concat(Stream.of(command), Stream.of(LOOPBACK)), Stream.of(args))
                .toArray(String[]::new);
        return CliRunner.run(all);
    }

    @Test
    void noPeakPrintsAZeroPeakAndTheCsvHasIt(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("bw.csv");
        CliRunner r = jperf("write-bw", "-n", "200", "-N", "--csv", csv.toString());
        assertEquals(0, r.exitCode(), r.err());
        List<String> rows = Files.readAllLines(csv).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(2, rows.size(), rows.toString());
        String[] header = rows.get(0).split(",");
        String[] values = rows.get(1).split(",");
        int peak = List.of(header).indexOf(List.of(header).stream().filter(h -> h.contains("peak")).findFirst()
                .orElseThrow());
        int avg = List.of(header).indexOf(List.of(header).stream().filter(h -> h.contains("av")).findFirst()
                .orElseThrow());
        assertEquals(0.0, Double.parseDouble(values[peak]), rows.toString());
        assertTrue(Double.parseDouble(values[avg]) > 0, rows.toString());
    }

    @Test
    void aBandwidthLimitNoSizeReachesFailsTheRunAndAReachedOnePasses() {
        CliRunner failed = jperf("write-bw", "-n", "200", "-w", "1000000000");
        assertEquals(ExitCodes.TEST_FAILED, failed.exitCode(), failed.err());
        assertTrue(failed.err().contains("-w/--limit_bw: the average bandwidth (best "), failed.err());
        CliRunner passed = jperf("write-bw", "-n", "200", "-w", "0.001", "-y", "0.000001");
        assertEquals(0, passed.exitCode(), passed.err());
    }

    @Test
    void aMarginShorterThanTheQuarterRuns() {
        CliRunner r = jperf("write-lat", "-D", "3", "-f", "0", "--warmup", "0");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("t_avg") || r.out().contains("usec"), r.out());
    }

    @Test
    void theEmbeddedExampleRunsItsLoopbackTestOnTheModulePath() throws Exception {
        Path repo = Path.of(System.getenv().getOrDefault("LAB_REPO", ".."));
        Path example = onlyJar(repo.resolve("examples/embedded/target"), "jperf-example-embedded-");
        Path core = onlyJar(repo.resolve("core/target"), "jperf-core-");
        Path ffi = onlyJar(repo.resolve("native-bindings/target"), "jperf-native-bindings-");
        String hdr = Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String modulePath = String.join(File.pathSeparator, example.toString(), core.toString(), ffi.toString(), hdr);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String out = "";
        int exit = -1;
        for (int attempt = 1; attempt <= 2; attempt++) {
            // native access for the bindings only, and refused everywhere else: core's verbs run through them
            ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=io.jperf.ffi",
                    "--illegal-native-access=deny", "-p", modulePath, "-m", "io.jperf.example.embedded", "rxe1", "rxe0")
                    .redirectErrorStream(true);
            pb.environment().remove("JAVA_TOOL_OPTIONS"); // its banner would come before the line read below
            Process p = pb.start();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the example did not finish");
            exit = p.exitValue();
            if (exit < 128) {
                break;
            }
            // the lab's known emulation fault (lab/README.md) kills a JVM now and then: a lost result, run again
            System.out.println("LabOutputsTest: the example's JVM died (exit " + exit + "), once more:\n" + out);
        }
        System.out.println("LabOutputsTest: the embedded example printed:\n" + out);
        assertEquals(0, exit, out);
        assertTrue(out.startsWith("write-bw loopback: 65536 bytes x 1000: "), out);
        assertFalse(out.contains("restricted method") || out.contains("IllegalCallerException"), out);
    }

    private static Path onlyJar(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jars = files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.getFileName().toString().endsWith(".jar") && !f.getFileName().toString().endsWith("-sources.jar")
                    && !f.getFileName().toString().endsWith("-javadoc.jar")).toList();
            assertEquals(1, jars.size(), dir + ": " + jars);
            return jars.getFirst();
        }
    }
}
