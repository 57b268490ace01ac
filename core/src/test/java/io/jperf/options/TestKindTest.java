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
        assertEquals(Optional.of(TestKind.SEND_BW), TestKind.byName("ib_send_bw"));
        assertEquals(Optional.of(TestKind.SEND_LAT), TestKind.byName("send-lat"));
        assertEquals(Optional.of(TestKind.ATOMIC_BW), TestKind.byName("atomic-bw"));
        assertEquals(Optional.of(TestKind.ATOMIC_LAT), TestKind.byName("ib_atomic_lat"));
        assertEquals(Optional.empty(), TestKind.byName("atomic-rate"));
    }

    @Test
    void readHasNoInlineAndUsesOutstandingReadsAndARequesterOnlyLatencyLoop() {
        assertFalse(Verb.READ.inlineAllowed());
        assertTrue(Verb.READ.usesOutstandingReads());
        assertFalse(Verb.READ.latencyIsPingPong());
        assertTrue(Verb.WRITE.latencyIsPingPong());
        assertEquals(0, TestKind.READ_LAT.defaultInlineSize(), "perftest's 220 is for write latency only");
        TestOptions o = TestOptions.builder(TestKind.READ_BW).build();
        assertEquals(65536, o.params().size());
        assertEquals(1000, o.params().iterations(), "perftest gives 5000 (DEF_ITERS_WB) to write bandwidth only");
        assertEquals(128, o.params().txDepth());
        assertEquals(0, o.params().outstandingReads(), "0: the device's maximum, as perftest");
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
                .params().outstandingReads(), "toBuilder keeps -o");
    }

    @Test
    void aJperfPeerRunningAnotherKindIsAParameterMismatch() {
        TestOptions read = TestOptions.builder(TestKind.READ_BW).build();
        TestOptions write = TestOptions.builder(TestKind.WRITE_BW).iterations(1000).build();
        assertEquals(java.util.List.of("test: local ib_read_bw, remote ib_write_bw"), read.params().symmetricMismatches(write.params()));
        assertEquals(java.util.List.of("test: local ib_read_bw, remote ib_write_bw", "-n/--iters: local 1000, remote 5000"),
                read.params().symmetricMismatches(write.toBuilder().iterations(5000).build().params()), "each kind's own default -n");
    }

    @Test
    void sendReceivesStartsItsPingPongFromTheClientAndHasPerftestsDefaults() {
        Verb send = Verb.SEND;
        assertTrue(send.usesReceives() && send.clientStartsPingPong() && send.latencyIsPingPong());
        assertFalse(send.latencyExtraKeyExchange(), "ib_send_lat sends no extra QP0 key message");
        assertTrue(Verb.WRITE.latencyExtraKeyExchange() && Verb.READ.latencyExtraKeyExchange());
        assertFalse(Verb.WRITE.usesReceives() || Verb.READ.usesReceives() || Verb.WRITE.clientStartsPingPong());
        assertTrue(send.inlineAllowed());
        assertFalse(send.usesOutstandingReads());
        assertEquals(0, send.perftestCode());
        assertEquals(2, Verb.WRITE.perftestCode());
        assertEquals(4, Verb.READ.perftestCode());
        assertEquals(236, send.knownNicLatencyInline());
        assertEquals(220, Verb.WRITE.knownNicLatencyInline());
        TestOptions bw = TestOptions.builder(TestKind.SEND_BW).build();
        assertEquals(65536, bw.params().size());
        assertEquals(1000, bw.params().iterations(), "ib_send_bw's default is 1000, not write_bw's 5000");
        assertEquals(128, bw.params().txDepth());
        assertEquals(512, bw.params().rxDepth());
        assertEquals(0, bw.params().inlineSize());
        TestOptions lat = TestOptions.builder(TestKind.SEND_LAT).build();
        assertEquals(2, lat.params().size());
        assertEquals(512, lat.params().rxDepth());
        assertEquals(236, lat.params().inlineSize());
        assertEquals(0, TestOptions.builder(TestKind.WRITE_BW).build().params().rxDepth(), "no receive queue for write");
    }

    @Test
    void rxDepthIsCappedAtTheIterationsAndMadeEvenAsPerftestDoes() {
        assertEquals(200, TestOptions.builder(TestKind.SEND_BW).iterations(200).build().params().rxDepth());
        assertEquals(8, TestOptions.builder(TestKind.SEND_BW).rxDepth(7).build().params().rxDepth(), "odd depths grow by one");
        assertEquals(7, TestOptions.builder(TestKind.SEND_BW).rxDepth(7).allSizes(true).build().params().rxDepth(),
                "perftest's even-up applies to single-size runs only");
        assertEquals(1024, TestOptions.builder(TestKind.SEND_LAT).rxDepth(1024).durationSeconds(5).build().params().rxDepth(),
                "-D does not cap");
        assertEquals(64, TestOptions.builder(TestKind.SEND_BW).rxDepth(64).build().toBuilder().build().params().rxDepth(),
                "toBuilder keeps -r");
    }

    @Test
    void sendChecksNameTheFlagAndTheProgram() {
        OptionsException rx = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.WRITE_BW).rxDepth(64).build());
        assertTrue(rx.getMessage().startsWith("-r/--rx-depth") && rx.getMessage().contains("ib_write_bw"),
                rx.getMessage());
        OptionsException range = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.SEND_BW).rxDepth(0).build());
        assertTrue(range.getMessage().startsWith("-r/--rx-depth: must be between 1 and 16384"), range.getMessage());
        OptionsException uc = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.SEND_BW).connection(Connection.UC).build());
        assertTrue(uc.getMessage().contains("ib_send_bw over RC only"), uc.getMessage());
        OptionsException bidi = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.SEND_BW).bidirectional(true).build());
        assertTrue(bidi.getMessage().startsWith("-b/--bidirectional") && bidi.getMessage().contains("not implemented"),
                bidi.getMessage());
        assertEquals(64, TestOptions.builder(TestKind.SEND_LAT).inlineSize(64).build().params().inlineSize(), "SEND may be inline");
    }
}
