package io.jperf.cli;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The perftest flags added for issue #25: -N, -f, -w, -y, --pin_cores, --perform_warm_up, -V. */
class PerftestCompatFlagsTest {
    private static final BandwidthResult.Unit MIB = BandwidthResult.Unit.MIB_PER_SEC;

    @Test
    void noPeakTurnsThePeakOff() {
        assertTrue(writeBw("10.0.0.2").params().peakEnabled());
        TestOptions options = writeBw("-N", "10.0.0.2");
        assertTrue(options.params().noPeak());
        assertFalse(options.params().peakEnabled());
        assertTrue(writeBw("--noPeak", "10.0.0.2").params().noPeak());
    }

    @Test
    void marginReplacesTheQuarterOfTheDuration() {
        assertEquals(2, writeBw("-D", "8", "10.0.0.2").params().marginSeconds());
        assertEquals(1, writeBw("-D", "8", "-f", "1", "10.0.0.2").params().marginSeconds());
        assertEquals(0, writeBw("-D", "8", "--margin", "0", "10.0.0.2").params().marginSeconds());
        assertEquals(3, writeBw("-D", "8", "-f", "3", "10.0.0.2").toBuilder().build().params().marginSeconds());
    }

    @Test
    void aMarginWithoutDurationOrOfHalfTheDurationIsRefused() {
        CliRunner r = CliRunner.run("write-bw", "-f", "1", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("-f/--margin applies to -D"), r.err());
        r = CliRunner.run("write-lat", "-D", "8", "-f", "4", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("less than half of -D (8 s), got 4"), r.err());
    }

    @Test
    void limitsPassWhenSomeSizeReachesThemAsPerftestOrsThem() {
        TestOptions client = writeBw("10.0.0.2");
        List<BandwidthResult> results = List.of(new BandwidthResult(2, 5000, 0, 10.0, 5.0, MIB),
                new BandwidthResult(65536, 5000, 0, 900.0, 0.0144, MIB));
        assertNull(PerfTestCommand.belowLimits(client, results, 900.0, null));
        assertNull(PerfTestCommand.belowLimits(client, results, null, 5.0));
        assertNull(PerfTestCommand.belowLimits(client, results, null, null));
        assertEquals("-w/--limit_bw: the average bandwidth (best 900.00 MiB/sec) is below the limit 900.50 MiB/sec",
                PerfTestCommand.belowLimits(client, results, 900.5, null));
        assertTrue(PerfTestCommand.belowLimits(client, results, 1.0, 5.5).startsWith("-y/--limit_msgrate: the message"
                + " rate (best 5.000000 Mpps) is below the limit 5.500000 Mpps"));
    }

    @Test
    void aUnidirectionalServerDoesNotCheckLimitsButBothEndsOfBidirectionalDo() {
        List<BandwidthResult> results = List.of(new BandwidthResult(65536, 5000, 0, 10.0, 0.1, MIB));
        assertNull(PerfTestCommand.belowLimits(writeBw(), results, 1e6, null));
        assertTrue(PerfTestCommand.belowLimits(writeBw("-b"), results, 1e6, null) != null);
        // --loopback has no host either, but its result is the client's (the lab caught this one)
        assertTrue(PerfTestCommand.belowLimits(writeBw("--loopback"), results, 1e6, null) != null);
    }

    @Test
    void aNegativeLimitIsRefused() {
        CliRunner r = CliRunner.run("write-bw", "-w", "-1", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("must be 0 or more"), r.err());
    }

    @Test
    void pinCoresIsCpuForOneCpuAndRefusesAList() {
        WriteBwCommand command = parse("--pin_cores", "1", "10.0.0.2");
        PerfTestCommand.applyPerftestAliases(command.common);
        assertEquals(1, command.common.run.cpuOrNone());
        WriteBwCommand list = parse("--pin_cores", "0-3", "10.0.0.2");
        UsageException e = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> PerfTestCommand.applyPerftestAliases(list.common));
        assertTrue(e.getMessage().contains("taskset -c 0-3"), e.getMessage());
        WriteBwCommand both = parse("--pin_cores", "1", "--cpu", "0", "10.0.0.2");
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> PerfTestCommand.applyPerftestAliases(both.common)).getMessage().contains("different CPUs"));
    }

    @Test
    void performWarmUpContradictsWarmupZero() {
        CliRunner r = CliRunner.run("write-bw", "--perform_warm_up", "--warmup", "0", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("--perform_warm_up"), r.err());
        WriteBwCommand command = parse("--perform_warm_up", "--use_old_post_send", "10.0.0.2");
        PerfTestCommand.applyPerftestAliases(command.common);
        assertTrue(command.common.performWarmUp && command.common.useOldPostSend);
    }

    @Test
    void versionOfATestCommandIsJperfs() {
        CliRunner r = CliRunner.run("write-lat", "-V");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().startsWith("jperf "), r.out());
    }

    private static TestOptions writeBw(String... args) {
        WriteBwCommand command = parse(args);
        return command.common.toOptions(TestKind.WRITE_BW, command.bw);
    }

    private static WriteBwCommand parse(String... args) {
        CommandLine root = JperfCommand.commandLineFor("write-bw");
        List<String> all = new ArrayList<>(List.of("write-bw"));
        all.addAll(List.of(args));
        root.parseArgs(all.toArray(String[]::new));
        return root.getSubcommands().get("write-bw").getCommand();
    }
}
