package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestKindTest {
    @Test
    void everyKindIsAVerbAndAMetricWithPerftestsProgramName() {
        for (TestKind k : TestKind.values()) {
            String metric = k.isBandwidth() ? "bw" : "lat";
            assertEquals("ib_" + k.verb().name().toLowerCase() + "_" + metric, k.perftestName());
            assertEquals(k.verb().name().toLowerCase() + "-" + metric, k.commandName());
        }
    }

    @Test
    void namesAreFoundInJperfsAndPerftestsSpellings() {
        assertEquals(Optional.of(TestKind.READ_BW), TestKind.byName("read-bw"));
        assertEquals(Optional.of(TestKind.READ_BW), TestKind.byName("read_bw"));
        assertEquals(Optional.of(TestKind.READ_LAT), TestKind.byName("ib_read_lat"));
        assertEquals(Optional.of(TestKind.WRITE_LAT), TestKind.byName(" IB-WRITE-LAT "));
        assertEquals(Optional.empty(), TestKind.byName("send-bw"), "not a kind yet");
    }

    @Test
    void readHasNoInlineAndUsesOutstandingReadsAndARequesterOnlyLatencyLoop() {
        assertFalse(Verb.READ.inlineAllowed());
        assertTrue(Verb.READ.usesOutstandingReads());
        assertFalse(Verb.READ.latencyIsPingPong());
        assertTrue(Verb.WRITE.latencyIsPingPong());
        assertEquals(0, TestKind.READ_LAT.defaultInlineSize(), "perftest's 220 is for write latency only");
        TestOptions o = TestOptions.builder(TestKind.READ_BW).build();
        assertEquals(65536, o.size());
        assertEquals(5000, o.iterations());
        assertEquals(128, o.txDepth());
        assertEquals(0, o.outstandingReads(), "0: the device's maximum, as perftest");
    }

    @Test
    void verbChecksNameTheFlagAndTheProgram() {
        OptionsException inline = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.READ_BW).inlineSize(64).build());
        assertTrue(inline.getMessage().startsWith("-I/--inline_size: RDMA READ carries no payload"), inline.getMessage());
        OptionsException outs = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.WRITE_BW).outstandingReads(4).build());
        assertTrue(outs.getMessage().contains("-o/--outs") && outs.getMessage().contains("ib_write_bw"), outs.getMessage());
        OptionsException range = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.READ_LAT).outstandingReads(256).build());
        assertTrue(range.getMessage().startsWith("-o/--outs"), range.getMessage());
        OptionsException uc = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.READ_BW).connection(Connection.UC).build());
        assertTrue(uc.getMessage().contains("UC has no RDMA READ"), uc.getMessage());
        assertEquals(16, TestOptions.builder(TestKind.READ_BW).outstandingReads(16).build().toBuilder().build()
                .outstandingReads(), "toBuilder keeps -o");
    }

    @Test
    void aJperfPeerRunningAnotherKindIsAParameterMismatch() {
        TestOptions read = TestOptions.builder(TestKind.READ_BW).build();
        TestOptions write = TestOptions.builder(TestKind.WRITE_BW).build();
        assertEquals(java.util.List.of("test: local ib_read_bw, remote ib_write_bw"), read.symmetricMismatches(write));
    }
}
