package io.jperf.report;

import io.jperf.result.BandwidthResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunInfoTest {
    @Test
    void theCommandLineIsQuotedAsAShellWouldTakeItBack() {
        RunInfo run = RunInfo.command(List.of("write-bw", "-a", "--csv", "my results.csv", "it's", "10.0.0.2"));
        assertEquals("jperf write-bw -a --csv 'my results.csv' 'it'\\''s' 10.0.0.2", run.commandLine());
        assertEquals(RunInfo.hostName(), run.host());
        assertFalse(run.host().isBlank());
    }

    @Test
    void theVersionIsTheBuildsNotAPlaceholder() {
        String version = RunInfo.libraryVersion();
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
    }

    @Test
    void csvFilesOpenWithOneCommentLineNamingTheRun() {
        RunInfo run = new RunInfo("0.1.0", "jperf write-bw --csv r.csv\n10.0.0.2", "lab-a");
        String csv = CsvReport.comment(run) + CsvReport.bandwidth(List.of(
                new BandwidthResult(65536, 5000, 2371.04, 2301.71, 0.036827, BandwidthResult.Unit.MIB_PER_SEC)));
        List<String> lines = csv.lines().toList();
        assertEquals("# jperf 0.1.0 on lab-a: jperf write-bw --csv r.csv 10.0.0.2", lines.get(0));
        assertEquals("size_bytes,iterations,bw_peak_mib_per_sec,bw_average_mib_per_sec,msg_rate_mpps", lines.get(1));
        assertEquals(3, lines.size());
    }
}
