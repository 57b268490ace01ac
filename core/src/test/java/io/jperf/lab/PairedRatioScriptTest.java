package io.jperf.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code lab/scripts/paired-ratio.awk}, the statistics of the jperf-vs-perftest comparison, against
 * hand-computed values. A unit test (no lab needed): it runs awk with the pairs on stdin, from a file,
 * so that an awk that exits before reading (as on an unknown direction) cannot break a pipe.
 */
class PairedRatioScriptTest {
    private static final Path SCRIPT = Path.of("..", "lab", "scripts", "paired-ratio.awk").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void nineLatencyPairsGiveTheMedianRatioAndTheSignTestInterval() throws Exception {
        // ratios 1.10 0.90 1.00 1.20 0.80 1.05 0.95 1.30 0.70 -> sorted 0.70 0.80 0.90 0.95 1.00 1.05 1.10 1.20 1.30
        // n = 9: P(X < 2) = 10/512 <= 0.025 < P(X < 3) = 46/512, so k = 2: [r(2), r(8)] = [0.80, 1.20],
        // coverage 1 - 2 * 10/512 = 96.1 %; jperf lower (better) in the 4 pairs with ratio < 1
        String pairs = "11 10\n9 10\n10 10\n12 10\n8 10\n10.5 10\n9.5 10\n13 10\n7 10\n";
        assertEquals("9 1.0000 0.8000 1.2000 96.1 4", run("lower", pairs));
    }

    @Test
    void fifteenBandwidthPairsUseRanksFourAndTwelve() throws Exception {
        // ratios k/10 for k = 1..15 (A = k, B = 10): n = 15, P(X < 4) = 576/32768 <= 0.025 < P(X < 5),
        // so [r(4), r(12)] = [0.4, 1.2], coverage 1 - 2 * 576/32768 = 96.5 %; A higher in k = 11..15
        StringBuilder pairs = new StringBuilder();
        for (int k = 15; k >= 1; k--) {
            pairs.append(k).append(' ').append(10).append('\n');
        }
        assertEquals("15 0.8000 0.4000 1.2000 96.5 5", run("higher", pairs.toString()));
    }

    @Test
    void failedRunsAreSkippedAndFewPairsHaveNoInterval() throws Exception {
        // the pairs with an empty, zero or non-numeric value are not usable; 2 usable pairs: ratios 0.5 and 2
        assertEquals("2 1.2500 - - - 1", run("higher", "1 2\n0 5\nx 3\n4 2\n7\n"));
        assertEquals("0 - - - - 0", run("lower", ""));
    }

    @Test
    void sixPairsAreTheFewestWithANinetyFivePercentInterval() throws Exception {
        assertEquals("5 1.0000 - - - 0", run("lower", "1 1\n1 1\n1 1\n1 1\n1 1\n"));
        assertEquals("6 1.0000 1.0000 1.0000 96.9 0", run("lower", "1 1\n1 1\n1 1\n1 1\n1 1\n1 1\n"));
    }

    @Test
    void anUnknownDirectionIsRefusedWithoutAResultLine() throws Exception {
        Process p = start("bigger", "1 2\n");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "awk did not end");
        assertEquals(2, p.exitValue(), out);
        assertEquals("BETTER must be higher or lower", out);
    }

    private String run(String better, String input) throws IOException, InterruptedException {
        Process p = start(better, input);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "awk did not end");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    private Process start(String better, String input) throws IOException {
        Path pairs = Files.createTempFile(dir, "pairs", ".txt");
        Files.writeString(pairs, input, StandardCharsets.US_ASCII);
        return new ProcessBuilder("awk", "-v", "BETTER=" + better, "-f", SCRIPT.toString())
                .redirectInput(pairs.toFile()).redirectErrorStream(true).start();
    }
}
