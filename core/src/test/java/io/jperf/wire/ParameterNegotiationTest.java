package io.jperf.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.ffi.generated.ibv_device_attr;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.options.TestParameters;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** perftest 6.28's parameter negotiation struct: its layout, who sends it, and the mismatches named. */
class ParameterNegotiationTest {
    private static final ParameterNegotiation BW = new ParameterNegotiation(0, 0, 2, 1, 0, 0, 1, 65536, 5000, 2, 5,
            true, 16);

    @Test
    void fieldsSitWherePerftestPutsThem() {
        byte[] b = BW.encode();
        assertEquals(ParameterNegotiation.SIZE, b.length);
        ByteBuffer bb = ByteBuffer.wrap(b);
        assertEquals(2, bb.getInt(8), "verb WRITE");
        assertEquals(1, bb.getInt(12), "tst BW");
        assertEquals(1, bb.getInt(24), "report_fmt MBS");
        assertEquals(65536, bb.getLong(32));
        assertEquals(5000, bb.getLong(40));
        assertEquals(2, bb.getInt(52), "num_of_qps");
        assertEquals(5, bb.getInt(56), "duration");
        assertEquals(1, bb.getInt(60), "use_rdma_cm");
        assertEquals(16, ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(80 + 144), "attr.max_qp_rd_atom, host order");
    }

    @Test
    void theAgreedParametersFillItAsPerftestDoes() {
        TestParameters write = TestOptions.builder(TestKind.WRITE_BW).numQps(2).rdmaCm(true).serverHost("h").build()
                .params();
        assertEquals(BW, ParameterNegotiation.of(write, 16));
        TestParameters all = TestOptions.builder(TestKind.READ_LAT).allSizes(true).reportGbits(true).build().params();
        assertEquals(new ParameterNegotiation(1, 0, 4, 0, 0, 0, 0, ParameterNegotiation.ALL_SIZES_MAX, 1000, 1, 5,
                false, 4), ParameterNegotiation.of(all, 4));
        TestParameters timed = TestOptions.builder(TestKind.ATOMIC_BW).durationSeconds(7).build().params();
        assertEquals(new ParameterNegotiation(0, 0, 5, 1, 1, 1, 1, 8, 0, 1, 7, false, 16),
                ParameterNegotiation.of(timed, 16));
    }

    @Test
    void theDeviceAttributesMatchRdmaCoresLayout() {
        assertEquals(232, ibv_device_attr.layout().byteSize(), "sizeof(struct ibv_device_attr)");
        assertEquals(ParameterNegotiation.MAX_QP_RD_ATOM_OFFSET, ibv_device_attr.max_qp_rd_atom$offset());
        assertEquals(ParameterNegotiation.SIZE, 80 + 232 + 8, "params, attr, mlx5dv_comp_mask");
    }

    @Test
    void decodingGivesBackTheValues() throws Exception {
        assertEquals(BW, ParameterNegotiation.decode(BW.encode()));
    }

    @Test
    void only628SendsItToJperf() {
        assertTrue(ParameterNegotiation.sentBy(PerftestVersion.parse("6.28")));
        assertFalse(ParameterNegotiation.sentBy(PerftestVersion.parse("6.29")), "6.29 negotiates with >= 6.28 only");
        assertFalse(ParameterNegotiation.sentBy(PerftestVersion.parse("6.06")));
        assertFalse(ParameterNegotiation.sentBy(PerftestVersion.parse("6.28 jperf")));
    }

    @Test
    void mismatchesNameTheFlagAndBothValues() {
        ParameterNegotiation peer = new ParameterNegotiation(0, 0, 2, 1, 0, 0, 0, 4096, 5000, 2, 5, false, 16);
        assertEquals(List.of("report format (--report_gbits): MiB/s here, Gb/s at the peer",
                "size (-s): 65536 here, 4096 at the peer", "RDMA CM (-R): on here, off at the peer"), BW.mismatches(peer));
        assertEquals(List.of(), BW.mismatches(BW));
    }
}
