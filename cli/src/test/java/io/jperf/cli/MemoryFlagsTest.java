package io.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.BufferOptions;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** perftest's memory flags: --use_hugepages and --mr_per_qp reach the options, --odp is refused with its reason. */
class MemoryFlagsTest {
    @Test
    void hugePagesAndARegionPerQpReachTheOptions() {
        assertEquals(new BufferOptions(true, true), writeBw("-q", "2", "--mr_per_qp", "--use_hugepages", "10.0.0.2")
                .params().buffers());
        assertEquals(new BufferOptions(false, true), writeBw("-q", "2", "--mr-per-qp", "10.0.0.2").params().buffers());
        assertEquals(BufferOptions.DEFAULT, writeBw("10.0.0.2").params().buffers());
    }

    @Test
    void aLatencyTestTakesHugePagesButNoRegionPerQp() {
        assertEquals(0, CliRunner.run("write-lat", "--use_hugepages", "--help").exitCode());
        CliRunner r = CliRunner.run("write-lat", "--mr_per_qp", "10.0.0.2");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--mr_per_qp: not a flag of perftest's ib_write_lat"), r.err());
    }

    @Test
    void odpIsRefusedNamingWhatTheBindingsLack() {
        CliRunner r = CliRunner.run("write-bw", "--odp", "10.0.0.2");
        assertEquals(2, r.exitCode());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("jperf: write-bw: --odp: jperf does not support this perftest flag yet"
                + " (perftest checks the device's On-Demand Paging capabilities with ibv_query_device_ex"), r.err());
        assertTrue(r.err().contains("no struct ibv_device_attr_ex"), r.err());
    }

    private static TestOptions writeBw(String... args) {
        CommandLine root = JperfCommand.commandLineFor("write-bw");
        List<String> all = new ArrayList<>(List.of("write-bw"));
        all.addAll(List.of(args));
        root.parseArgs(all.toArray(String[]::new));
        WriteBwCommand command = root.getSubcommands().get("write-bw").getCommand();
        return command.common.toOptions(TestKind.WRITE_BW, command.bw);
    }
}
