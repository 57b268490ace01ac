package io.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** send-bw and send-lat on the command line: listed, their -r, and what they refuse (no RDMA needed). */
class SendCommandsTest {
    @Test
    void bothAreListedAndTakeTheRxDepth() {
        String top = CliRunner.run("--help").out();
        assertTrue(top.contains("send-bw") && top.contains("send-lat"), top);
        for (String command : new String[] {"send-bw", "send-lat"}) {
            CliRunner r = CliRunner.run(command, "--help");
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.out().contains("-r, --rx-depth"), r.out());
            assertTrue(r.out().contains("--inline_size"), r.out());
        }
        assertTrue(CliRunner.run("send-bw", "--help").out().contains("--tx-depth"), "bandwidth flags");
        assertTrue(CliRunner.run("send-lat", "--help").out().contains("--hlog"), "latency's histogram log");
    }

    @Test
    void ucBidirectionalAndABadRxDepthAreRefusedAndWriteHasNoRxDepth() {
        CliRunner uc = CliRunner.run("send-bw", "-c", "UC", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, uc.exitCode(), uc.err());
        assertTrue(uc.err().contains("RC only"), uc.err());
        CliRunner bidi = CliRunner.run("send-bw", "-b", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, bidi.exitCode(), bidi.err());
        assertTrue(bidi.err().contains("-b/--bidirectional"), bidi.err());
        CliRunner rx = CliRunner.run("send-lat", "-r", "20000", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, rx.exitCode(), rx.err());
        assertTrue(rx.err().contains("-r/--rx-depth"), rx.err());
        CliRunner write = CliRunner.run("write-bw", "-r", "4", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, write.exitCode(), write.err());
    }
}
