package io.jperf.cli;

import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code -a} server's files: every size where the server measures every size (write-lat, read-lat's
 * requester aside, and -b), perftest's {@code --out_json} the last (perftest rewrites it per size); a
 * unidirectional bandwidth server every size a jperf client reported, and with a perftest client (whose
 * protocol carries only the last size) that one, saying so.
 */
class ServerFilesTest {
    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-lat -a", "lab-b");
    private static final BandwidthResult.Unit MIB = BandwidthResult.Unit.MIB_PER_SEC;

    private static <T> T parse(T command, String... args) {
        new CommandLine(command).parseArgs(args);
        return command;
    }

    private static PerfTestResult result(TestOptions o, List<BandwidthResult> bw, List<LatencyResult> lat) {
        TestHeader header = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true);
        EndpointInfo me = new EndpointInfo(0, 17, 0x123456, 0x1a2b, 0x7f0000001000L, new byte[16], 1);
        return new PerfTestResult(o, header, List.of(me), List.of(me), "6.29", bw, lat, Optional.empty(), List.of(),
                List.of());
    }

    private static List<String> csvRows(Path csv) throws IOException {
        return Files.readAllLines(csv).stream().filter(l -> !l.startsWith("#")).skip(1).toList();
    }

    @Test
    void aLatencyServerWritesEverySizeAndPerftestsJsonTheLast(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("lat.csv");
        Path json = dir.resolve("perftest.json");
        Path record = dir.resolve("jperf.json");
        WriteLatCommand c = parse(new WriteLatCommand(), "-a", "--csv", csv.toString(), "--out_json", "--out_json_file",
                json.toString());
        TestOptions o = c.common.toOptions(TestKind.WRITE_LAT, null);
        assertTrue(o.isServer());
        List<LatencyResult> lat = new ArrayList<>();
        for (long size = 2; size <= 8; size *= 2) {
            lat.add(new LatencyResult(size, 1000, 1.0 * size, 3.0 * size, 2.0 * size, 2.0 * size, 0.1, 2.5 * size,
                    2.9 * size));
        }
        PerfTestCommand.writeFiles(o, result(o, List.of(), lat), record, RUN);
        List<String> rows = csvRows(csv);
        assertEquals(3, rows.size(), rows.toString());
        assertTrue(rows.get(0).startsWith("2,1000,") && rows.get(2).startsWith("8,1000,"), rows.toString());
        String jperf = Files.readString(record);
        for (int size : new int[] {2, 4, 8}) {
            assertTrue(jperf.contains("\"size_bytes\": " + size), jperf);
        }
        String perftest = Files.readString(json);
        assertTrue(perftest.contains("\"MsgSize\": 8"), perftest);
        assertFalse(perftest.contains("\"MsgSize\": 2,"), perftest);
        assertNull(PerfTestCommand.serverFilesNote(o, record, 0, "6.29"), "a latency server's files hold every size");
    }

    @Test
    void aBidirectionalServerWritesEverySize(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("bw.csv");
        WriteBwCommand c = parse(new WriteBwCommand(), "-a", "-b", "--csv", csv.toString());
        TestOptions o = c.common.toOptions(TestKind.WRITE_BW, c.bw);
        List<BandwidthResult> bw = List.of(new BandwidthResult(2, 5000, 1, 1, 0.5, MIB),
                new BandwidthResult(4, 5000, 2, 2, 0.5, MIB));
        PerfTestCommand.writeFiles(o, result(o, bw, List.of()), null, RUN);
        assertEquals(2, csvRows(csv).size());
        assertNull(PerfTestCommand.serverFilesNote(o, null, 2, "6.29"));
    }

    /** A jperf client sends every size's report: the server's files hold every size, and it says nothing. */
    @Test
    void aUnidirectionalBandwidthServerOfAJperfClientWritesEverySize(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("bw.csv");
        WriteBwCommand c = parse(new WriteBwCommand(), "-a", "--csv", csv.toString());
        TestOptions o = c.common.toOptions(TestKind.WRITE_BW, c.bw);
        List<BandwidthResult> bw = new ArrayList<>();
        for (long size : o.params().messageSizes()) {
            bw.add(new BandwidthResult(size, 5000, size, size / 2.0, 0.5, MIB));
        }
        PerfTestCommand.writeFiles(o, result(o, bw, List.of()), null, RUN);
        List<String> rows = csvRows(csv);
        assertEquals(o.params().messageSizes().size(), rows.size(), rows.toString());
        assertTrue(rows.getFirst().startsWith("2,5000,") && rows.getLast().startsWith("8388608,5000,"), rows.toString());
        assertNull(PerfTestCommand.serverFilesNote(o, null, bw.size(), "6.29-jperf"));
    }

    /** perftest's protocol carries the last size only: with a perftest client the server says so, after the run. */
    @Test
    void aUnidirectionalBandwidthServerOfAPerftestClientSaysItsFilesHoldTheLastSize() {
        WriteBwCommand server = parse(new WriteBwCommand(), "-a", "--csv", "bw.csv");
        TestOptions o = server.common.toOptions(TestKind.WRITE_BW, server.bw);
        assertEquals("the client (version 6.29) reported only its last size, as perftest's protocol does (a jperf"
                + " client reports every size of -a), so --csv and --jperf-json hold that one size; the client's"
                + " files hold every size", PerfTestCommand.serverFilesNote(o, Path.of("j"), 1, "6.29"));
        assertTrue(PerfTestCommand.serverFilesNote(o, null, 1, "6.06").contains("so --csv holds that one size"));
        assertNull(PerfTestCommand.serverFilesNote(o, null, o.params().messageSizes().size(), "6.29"), "every size heard");
        ReadBwCommand read = parse(new ReadBwCommand(), "-a", "--jperf-json", "r.json");
        assertTrue(PerfTestCommand.serverFilesNote(read.common.toOptions(TestKind.READ_BW, read.bw), Path.of("r.json"),
                1, "6.28").contains("--jperf-json holds that one size"));
        // nothing to say: no files, one size, a client, loopback (the client's result)
        assertNull(noFiles());
        WriteBwCommand oneSize = parse(new WriteBwCommand(), "--csv", "bw.csv");
        assertNull(PerfTestCommand.serverFilesNote(oneSize.common.toOptions(TestKind.WRITE_BW, oneSize.bw), null, 1,
                "6.29"));
        WriteBwCommand client = parse(new WriteBwCommand(), "-a", "--csv", "bw.csv", "10.0.0.2");
        assertNull(PerfTestCommand.serverFilesNote(client.common.toOptions(TestKind.WRITE_BW, client.bw), null, 1,
                "6.29"));
        WriteBwCommand loopback = parse(new WriteBwCommand(), "-a", "--csv", "bw.csv", "--loopback");
        assertNull(PerfTestCommand.serverFilesNote(loopback.common.toOptions(TestKind.WRITE_BW, loopback.bw), null, 1,
                "6.29"));
    }

    private static String noFiles() {
        WriteBwCommand none = parse(new WriteBwCommand(), "-a");
        return PerfTestCommand.serverFilesNote(none.common.toOptions(TestKind.WRITE_BW, none.bw), null, 1, "6.29");
    }
}
