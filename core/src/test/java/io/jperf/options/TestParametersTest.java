package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TestParametersTest {

    private static final TestParameters BW = TestOptions.builder(TestKind.WRITE_BW).build().params();

    /** {@code p} with {@code -R}, {@code -T}, {@code -D} and {@code -f} replaced, through the canonical constructor. */
    private static TestParameters with(TestParameters p, boolean rdmaCm, Integer tos, int duration, int margin) {
        return new TestParameters(p.kind(), p.connection(), p.size(), p.allSizes(), p.iterations(), duration,
                p.numQps(), p.bidirectional(), p.txDepth(), p.postList(), p.cqModeration(), p.cqModerationExplicit(),
                p.inlineSize(), p.inlineSizeExplicit(), p.mtu(), p.serviceLevel(), p.trafficClass(), p.qpTimeout(),
                rdmaCm, tos, p.reportGbits(), p.outstandingReads(), p.rxDepth(), p.noPeak(), margin, p.atomicType(),
                p.runInfinitely(), p.buffers());
    }

    @Test
    void theConstructorAcceptsWhatTheBuilderMakes() {
        assertEquals(BW, with(BW, false, null, 0, -1));
        assertEquals(32, with(BW, true, 32, 0, -1).tos());
    }

    @Test
    void tosNeedsRdmaCm() {
        OptionsException e = assertThrows(OptionsException.class, () -> with(BW, false, 32, 0, -1));
        assertEquals("-T/--tos: only valid with -R/--rdma_cm (use --tclass without -R)", e.getMessage());
    }

    @Test
    void theMarginMustBeLessThanHalfTheDuration() {
        assertEquals(2, with(BW, false, null, 10, 2).marginSeconds());
        OptionsException e = assertThrows(OptionsException.class, () -> with(BW, false, null, 10, 5));
        assertEquals("-f/--margin must be 0 or more and less than half of -D (10 s), got 5", e.getMessage());
        assertEquals("-f/--margin applies to -D/--duration runs only",
                assertThrows(OptionsException.class, () -> with(BW, false, null, 0, 1)).getMessage());
    }

    @Test
    void aNullKindIsRefused() {
        TestParameters p = BW;
        assertThrows(NullPointerException.class, () -> new TestParameters(null, p.connection(), p.size(),
                p.allSizes(), p.iterations(), 0, p.numQps(), p.bidirectional(), p.txDepth(), p.postList(),
                p.cqModeration(), p.cqModerationExplicit(), p.inlineSize(), p.inlineSizeExplicit(), p.mtu(),
                p.serviceLevel(), p.trafficClass(), p.qpTimeout(), p.rdmaCm(), p.tos(), p.reportGbits(),
                p.outstandingReads(), p.rxDepth(), p.noPeak(), p.margin(), p.atomicType(), p.runInfinitely(),
                p.buffers()));
    }

    @Test
    void onlyWhatBothEndsAgreeOnIsSymmetric() {
        assertTrue(BW.symmetricParameters().containsKey("--report_gbits"));
        assertEquals(BW.symmetricParameters(), TestOptions.builder(TestKind.WRITE_BW).serverHost("h").gidIndex(3)
                .device("mlx5_1").json(true).build().params().symmetricParameters(),
                "the target and the output are not exchanged");
    }
}
