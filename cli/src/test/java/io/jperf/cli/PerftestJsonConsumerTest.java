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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A script written for perftest's {@code --out_json} (a few lines of Python using perftest's keys) reads the
 * file jperf's write-bw and write-lat write for {@code --out_json --out_json_file FILE}: the options parsed by
 * the real command, the file written by the command's own code. Runs python3 when the machine has it.
 */
class PerftestJsonConsumerTest {
    /** What a perftest user's script does with perftest_out.json. */
    private static final String CONSUMER = """
            import json, sys
            with open(sys.argv[1]) as f:
                report = json.load(f)
            info, res = report["test_info"], report["results"]
            print(f'{info["test"]} on {info["Device"]} ({info["Link_type"]}, MTU {info["Mtu"]}, '
                  f'{info["Number_of_qps"]} QP, {info["Connection_type"]}, exchange {info["Data_ex_method"]})')
            if "BW_average" in res:
                print(f'{res["MsgSize"]} B x {res["n_iterations"]}: BW_peak {res["BW_peak"]:.2f} '
                      f'BW_average {res["BW_average"]:.2f} MsgRate {res["MsgRate"]:.6f}')
            else:
                print(f'{res["MsgSize"]} B x {res["n_iterations"]}: t_typical {res["t_typical"]:.2f} us '
                      f't_avg {res["t_avg"]:.2f} us 99% {res["percentile_99"]:.2f} us 99.9% {res["percentile_99.9"]:.2f} us')
            """;

    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-bw --out_json 10.20.0.2", "lab-a");

    /** The options write-bw would run with for {@code args}. */
    private static TestOptions writeBw(String... args) {
        WriteBwCommand command = new WriteBwCommand();
        new CommandLine(command).parseArgs(args);
        return command.common.toOptions(TestKind.WRITE_BW, command.bw);
    }

    /** The options write-lat would run with for {@code args}. */
    private static TestOptions writeLat(String... args) {
        WriteLatCommand command = new WriteLatCommand();
        new CommandLine(command).parseArgs(args);
        return command.common.toOptions(TestKind.WRITE_LAT, null);
    }

    private static PerfTestResult result(TestOptions o, List<BandwidthResult> bw, List<LatencyResult> lat) {
        TestHeader header = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true);
        EndpointInfo me = new EndpointInfo(0, 17, 0x123456, 0x1a2b, 0x7f0000001000L, new byte[16], 1);
        return new PerfTestResult(o, header, List.of(me), List.of(me), "6.29", bw, lat, Optional.empty(), List.of(),
                List.of());
    }

    private static String python(Path file) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c", CONSUMER, file.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("python3 is not on this machine (" + e.getMessage() + "); the perftest JSON consumer"
                    + " was not run");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 did not finish");
        assertEquals(0, p.exitValue(), out);
        System.out.print("python3 perftest consumer on " + file.getFileName() + ":\n" + out);
        return out;
    }

    @Test
    void aPerftestScriptReadsWriteBwsOutJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bw.json");
        TestOptions o = writeBw("-a", "--out_json", "--out_json_file", file.toString(), "10.20.0.2");
        assertTrue(o.output().json());
        assertEquals(file, o.output().jsonFile());
        PerfTestResult r = result(o, List.of(
                new BandwidthResult(4096, 5000, 1873.456, 1870.123, 0.478751, BandwidthResult.Unit.MIB_PER_SEC),
                new BandwidthResult(65536, 5000, 2371.0449, 2301.7051, 0.0368273, BandwidthResult.Unit.MIB_PER_SEC)),
                List.of());
        Path jperfJson = dir.resolve("jperf.json");
        PerfTestCommand.writeFiles(o, r, jperfJson, RUN);

        String out = python(file);
        assertEquals("RDMA_Write_BW_Test on rxe0 (Ethernet, MTU 1024, 1 QP, RC, exchange Ethernet)\n"
                + "65536 B x 5000: BW_peak 2371.04 BW_average 2301.71 MsgRate 0.036827\n", out);
        // jperf's own record went to its own file, with every size and the run
        String record = Files.readString(jperfJson);
        assertTrue(record.contains("\"size_bytes\": 4096") && record.contains("\"size_bytes\": 65536"), record);
        assertTrue(record.contains("\"command_line\": \"jperf write-bw --out_json 10.20.0.2\""), record);
        assertFalse(Files.readString(file).contains("jperf_version"), "perftest's file has only perftest's keys");
    }

    @Test
    void aPerftestScriptReadsWriteLatsOutJson(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("lat.json");
        TestOptions o = writeLat("--out_json", "--out_json_file", file.toString(), "10.20.0.2");
        PerfTestResult r = result(o, List.of(),
                List.of(new LatencyResult(2, 1000, 6.381, 28.937, 7.42, 7.7168, 0.8162, 12.02, 20.405)));
        PerfTestCommand.writeFiles(o, r, null, RUN);
        assertEquals("RDMA_Write_Latency_Test on rxe0 (Ethernet, MTU 1024, 1 QP, RC, exchange Ethernet)\n"
                + "2 B x 1000: t_typical 7.42 us t_avg 7.72 us 99% 12.02 us 99.9% 20.41 us\n", python(file));
    }

    @Test
    void outJsonAloneWritesPerftestsDefaultFileName() {
        TestOptions o = writeBw("--out_json", "10.20.0.2");
        assertEquals(Path.of("perftest_out.json"), o.output().jsonFile());
    }
}
