package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ib_atomic_bw / ib_atomic_lat as kinds: perftest's defaults, its refusals, -A. */
class AtomicKindTest {
    @Test
    void atomicIsOneSidedWithOutstandingReadsNoInlineAndARequesterOnlyLatencyLoop() {
        Verb v = Verb.ATOMIC;
        assertTrue(v.isAtomic() && v.usesOutstandingReads());
        assertFalse(v.inlineAllowed() || v.usesReceives() || v.latencyIsPingPong() || v.clientStartsPingPong());
        assertTrue(v.latencyExtraKeyExchange(), "ib_atomic_lat exchanges QP0's keys once more, as ib_read_lat");
        assertEquals(5, v.perftestCode());
        assertEquals("Atomic", v.perftestTitle());
        assertFalse(Verb.READ.isAtomic() || Verb.WRITE.isAtomic() || Verb.SEND.isAtomic());
        assertEquals("atomic-bw", TestKind.ATOMIC_BW.commandName());
        assertEquals("ib_atomic_lat", TestKind.ATOMIC_LAT.perftestName());
    }

    @Test
    void defaultsArePerftestsEightByteFetchAndAdd() {
        TestOptions bw = TestOptions.builder(TestKind.ATOMIC_BW).build();
        assertEquals(8, bw.params().size());
        assertEquals(1000, bw.params().iterations());
        assertEquals(128, bw.params().txDepth());
        assertEquals(0, bw.params().inlineSize());
        assertEquals(AtomicType.FETCH_AND_ADD, bw.params().atomicType());
        TestOptions lat = TestOptions.builder(TestKind.ATOMIC_LAT).atomicType(AtomicType.CMP_AND_SWAP).build();
        assertEquals(8, lat.params().size());
        assertEquals(1, lat.params().txDepth());
        assertEquals(AtomicType.CMP_AND_SWAP, lat.params().atomicType());
        assertEquals(AtomicType.CMP_AND_SWAP, lat.toBuilder().build().params().atomicType(), "toBuilder keeps -A");
        assertEquals(8, TestOptions.builder(TestKind.ATOMIC_BW).size(8).build().params().size(), "-s 8 is allowed, as perftest");
        assertNull(TestOptions.builder(TestKind.WRITE_BW).build().params().atomicType());
    }

    @Test
    void anotherSizeAllSizesInlineUcAndAtomicTypeOnOtherKindsAreRefusedNamingTheFlag() {
        OptionsException size = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.ATOMIC_BW).size(64).build());
        assertEquals("-s/--size: the message size cannot be changed for atomic tests: ib_atomic_bw runs 8-byte"
                + " messages only (got 64)", size.getMessage());
        OptionsException all = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.ATOMIC_LAT).allSizes(true).build());
        assertTrue(all.getMessage().startsWith("-a/--all: the message size cannot be changed"), all.getMessage());
        OptionsException inline = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.ATOMIC_BW).inlineSize(8).build());
        assertTrue(inline.getMessage().startsWith("-I/--inline_size: ATOMIC carries no payload"), inline.getMessage());
        OptionsException uc = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.ATOMIC_BW).connection(Connection.UC).build());
        assertTrue(uc.getMessage().contains("UC has no atomic operations"), uc.getMessage());
        OptionsException other = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.READ_BW).atomicType(AtomicType.FETCH_AND_ADD).build());
        assertTrue(other.getMessage().startsWith("-A/--atomic_type") && other.getMessage().contains("ib_read_bw"),
                other.getMessage());
        assertEquals(4, TestOptions.builder(TestKind.ATOMIC_LAT).outstandingReads(4).build().params().outstandingReads(),
                "-o applies to atomics");
    }

    @Test
    void atomicTypeParsesPerftestsSpellingsAndNamesTheChoicesOtherwise() {
        assertEquals(AtomicType.CMP_AND_SWAP, AtomicType.parse("CMP_AND_SWAP"));
        assertEquals(AtomicType.FETCH_AND_ADD, AtomicType.parse(" fetch_and_add"));
        assertEquals(0, AtomicType.CMP_AND_SWAP.perftestCode());
        assertEquals(1, AtomicType.FETCH_AND_ADD.perftestCode());
        OptionsException bad = assertThrows(OptionsException.class, () -> AtomicType.parse("ADD"));
        assertEquals("-A/--atomic_type: 'ADD' is not an atomic type; use CMP_AND_SWAP or FETCH_AND_ADD",
                bad.getMessage());
    }

    @Test
    void theOperationIsSymmetricBetweenJperfEnds() {
        TestOptions fa = TestOptions.builder(TestKind.ATOMIC_BW).build();
        TestOptions cs = TestOptions.builder(TestKind.ATOMIC_BW).atomicType(AtomicType.CMP_AND_SWAP).build();
        assertEquals(List.of("-A/--atomic_type: local FETCH_AND_ADD, remote CMP_AND_SWAP"),
                fa.params().symmetricMismatches(cs.params()));
        assertFalse(TestOptions.builder(TestKind.WRITE_BW).build().params().symmetricParameters()
                .containsKey("-A/--atomic_type"), "other kinds exchange what they did before");
    }
}
