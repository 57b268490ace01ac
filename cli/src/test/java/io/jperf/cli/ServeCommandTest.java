package io.jperf.cli;

import io.jperf.engine.JperfServer.Served;
import io.jperf.engine.TestFailedException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServeCommandTest {

    @Test
    void invalidCountsAndTimeoutsAreRefusedBeforeListening() {
        for (String[] args : new String[][] {{"serve", "--count", "0"}, {"serve", "--timeout", "0"},
                {"serve", "--idle-timeout", "-3"}, {"serve", "-p", "70000"}}) {
            CliRunner r = CliRunner.run(args);
            assertEquals(ExitCodes.USAGE, r.exitCode(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().lines().count() <= 3, r.err());
            assertTrue(r.err().contains(args[1]) || r.err().contains("port"), r.err());
        }
    }

    @Test
    void helpDescribesWhoCanUseIt() {
        CliRunner r = CliRunner.run("serve", "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("perftest clients cannot use it"), r.out());
        assertTrue(r.out().contains("--count"), r.out());
    }

    @Test
    void aServedLineNamesTheClientTheDeviceAndTheOutcome() throws Exception {
        TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).device("rxe1").gidIndex(3).rdmaCm(true)
                .trafficClass(106).build();
        String failed = ServeCommand.describe(4, new Served(InetAddress.getByName("10.20.0.1"), Optional.of(o),
                Optional.empty(), Optional.of(new TestFailedException("port 1 of rxe1 is PORT_DOWN\nsecond line"))));
        assertTrue(failed.startsWith("[4] "), failed);
        assertTrue(failed.contains("10.20.0.1 ib_write_lat rxe1 GID 3 -R tclass 106: FAILED: port 1 of rxe1 is PORT_DOWN"),
                failed);
        assertTrue(!failed.contains("second line"), "one line per client");
    }
}
