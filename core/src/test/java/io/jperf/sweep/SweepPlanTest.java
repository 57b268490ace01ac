package io.jperf.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

class SweepPlanTest {

    private static TestOptions.Builder bw() {
        return TestOptions.builder(TestKind.WRITE_BW).serverHost("10.20.0.2");
    }

    private static IllegalArgumentException refused(SweepPlan.Builder b) {
        return assertThrows(IllegalArgumentException.class, b::build);
    }

    @Test
    void theProductNestsInDimensionOrderWithTheFirstVaryingSlowest() {
        // given in another order than the nesting order: the plan still nests rail, rdma_cm, size
        SweepPlan plan = SweepPlan.builder(bw().iterations(1000).build())
                .values(SweepDimension.SIZE, List.of("2", "65536", "1M"))
                .values(SweepDimension.RDMA_CM, List.of("off", "ON"))
                .values(SweepDimension.RAIL, List.of("rxe0=10.20.0.2", "rxe1>10.20.1.2"))
                .build();
        assertEquals(List.of("rail", "rdma_cm", "size"), plan.dimensionNames());
        assertEquals(12, plan.size());
        List<SweepChoice> c = plan.choices();
        assertEquals(12, c.size());
        for (int i = 0; i < c.size(); i++) {
            assertEquals(i, c.get(i).index());
        }
        assertEquals("rail=rxe0>10.20.0.2 rdma_cm=off size=2", c.get(0).label());
        assertEquals("rail=rxe0>10.20.0.2 rdma_cm=off size=64K", c.get(1).label());
        assertEquals("rail=rxe0>10.20.0.2 rdma_cm=on size=2", c.get(3).label());
        assertEquals("rail=rxe1>10.20.1.2 rdma_cm=off size=2", c.get(6).label());
        assertEquals("rail=rxe1>10.20.1.2 rdma_cm=on size=1M", c.get(11).label());

        SweepChoice last = c.get(11);
        assertEquals("rxe1", last.options().target().device());
        assertTrue(last.options().params().rdmaCm());
        assertEquals(1 << 20, last.options().params().size());
        assertEquals(Optional.of("10.20.1.2"), last.peerAddress());
        assertEquals("10.20.0.2", last.options().target().serverHost(), "the control connection always goes to PEER");
        assertEquals(1000, last.options().params().iterations(), "base options apply to every choice");
        assertEquals("rxe0", c.get(0).options().target().device());
        assertFalse(c.get(0).options().params().rdmaCm());
        assertEquals(2, c.get(0).options().params().size());
    }

    @Test
    void eachDimensionSetsItsOptionAndAbsentOnesKeepTheBase() {
        SweepPlan plan = SweepPlan.builder(bw().device("mlx5_0").size(4096).build())
                .values(SweepDimension.GID, List.of("3", "1"))
                .values(SweepDimension.TCLASS, List.of("0", "106"))
                .values(SweepDimension.SOURCE, List.of("10.20.0.1"))
                .build();
        assertEquals(List.of("source", "gid", "tclass"), plan.dimensionNames());
        List<SweepChoice> c = plan.choices();
        assertEquals(4, c.size());
        assertEquals(Map.of("source", "10.20.0.1", "gid", "3", "tclass", "106"), c.get(1).dimensions());
        assertEquals(3, c.get(1).options().target().gidIndex());
        assertEquals(106, c.get(1).options().params().trafficClass());
        assertEquals("10.20.0.1", c.get(1).options().target().bindSourceIp());
        assertEquals(1, c.get(3).options().target().gidIndex());
        assertEquals("mlx5_0", c.get(3).options().target().device());
        assertEquals(4096, c.get(3).options().params().size());
        assertEquals(Optional.empty(), c.get(3).peerAddress(), "without rails the peer uses the control address");
    }

    @Test
    void withoutDimensionsThePlanHasOnePointWithTheBaseOptions() {
        TestOptions base = bw().build();
        List<SweepChoice> c = SweepPlan.builder(base).build().choices();
        assertEquals(1, c.size());
        assertEquals("default", c.getFirst().label());
        assertEquals(base, c.getFirst().options());
    }

    @Test
    void valuesAreCanonical() {
        assertEquals("rxe1>10.20.1.2", SweepDimension.RAIL.canonical(" rxe1 = 10.20.1.2 "));
        assertEquals("mlx5_0>fd00::2", SweepDimension.RAIL.canonical("mlx5_0=fd00:0:0::2"));
        assertEquals("64K", SweepDimension.SIZE.canonical("65536"));
        assertEquals("1000", SweepDimension.SIZE.canonical("1000"));
        assertEquals("on", SweepDimension.RDMA_CM.canonical("true"));
        assertEquals("off", SweepDimension.RDMA_CM.canonical("Off"));
        assertEquals("7", SweepDimension.GID.canonical("07"));
    }

    @Test
    void badValuesNameTheOption() {
        Object[][] cases = {
            {SweepDimension.RAIL, "rxe0", "--rails"},
            {SweepDimension.RAIL, "rxe0=peer.example.com", "--rails"},
            {SweepDimension.RAIL, "=10.0.0.1", "--rails"},
            {SweepDimension.SOURCE, "host.example", "--sources"},
            {SweepDimension.SOURCE, "10.0.0.256", "--sources"},
            {SweepDimension.GID, "256", "--gid-indexes"},
            {SweepDimension.GID, "-1", "--gid-indexes"},
            {SweepDimension.GID, "x", "--gid-indexes"},
            {SweepDimension.RDMA_CM, "maybe", "--rdma-cm"},
            {SweepDimension.TCLASS, "300", "--tclasses"},
            {SweepDimension.SIZE, "12Q", "--sizes"},
            {SweepDimension.SIZE, "0", "--sizes"},
            {SweepDimension.SIZE, " ", "--sizes"},
        };
        for (Object[] c : cases) {
            SweepDimension dim = (SweepDimension) c[0];
            IllegalArgumentException e = refused(SweepPlan.builder(bw().build()).values(dim, List.of((String) c[1])));
            assertTrue(e.getMessage().startsWith(c[2] + ":"), c[1] + " -> " + e.getMessage());
        }
    }

    @Test
    void emptyListsAndRepeatsAreRefused() {
        IllegalArgumentException empty = refused(SweepPlan.builder(bw().build()).values(SweepDimension.SIZE, List.of()));
        assertTrue(empty.getMessage().startsWith("--sizes: give at least one value"), empty.getMessage());
        IllegalArgumentException twice = refused(SweepPlan.builder(bw().build())
                .values(SweepDimension.SIZE, List.of("64K", "4K", "65536")));
        assertTrue(twice.getMessage().startsWith("--sizes: '65536' is given twice (as 64K)"), twice.getMessage());
        IllegalArgumentException rails = refused(SweepPlan.builder(bw().build())
                .values(SweepDimension.RAIL, List.of("rxe0=10.0.0.2", "rxe0>10.0.0.2")));
        assertTrue(rails.getMessage().startsWith("--rails:"), rails.getMessage());
    }

    @Test
    void conflictsWithTheBaseOptionsAreRefused() {
        assertTrue(refused(SweepPlan.builder(bw().device("rxe0").build())
                .values(SweepDimension.RAIL, List.of("rxe1=10.0.0.2"))).getMessage().contains("-d"));
        assertTrue(refused(SweepPlan.builder(bw().gidIndex(1).build())
                .values(SweepDimension.GID, List.of("3"))).getMessage().startsWith("--gid-indexes sets what -x"));
        assertTrue(refused(SweepPlan.builder(bw().bindSourceIp("10.0.0.1").build())
                .values(SweepDimension.SOURCE, List.of("10.0.0.3"))).getMessage().contains("--bind_source_ip"));
        assertTrue(refused(SweepPlan.builder(bw().allSizes(true).build())
                .values(SweepDimension.SIZE, List.of("2"))).getMessage().contains("-a"));
        assertTrue(refused(SweepPlan.builder(bw().trafficClass(106).build())
                .values(SweepDimension.TCLASS, List.of("0"))).getMessage().contains("--tclass"));
        assertTrue(refused(SweepPlan.builder(TestOptions.builder(TestKind.WRITE_BW).build()))
                .getMessage().startsWith("PEER"));
    }

    @Test
    void aChoiceWhoseOptionsAreInvalidIsNamed() {
        // -T needs -R: fine at rdma_cm=on, invalid at rdma_cm=off
        TestOptions base = bw().rdmaCm(true).tos(32).build();
        IllegalArgumentException e = refused(SweepPlan.builder(base)
                .values(SweepDimension.RDMA_CM, List.of("on", "off")));
        assertTrue(e.getMessage().startsWith("choice rdma_cm=off: -T"), e.getMessage());
        // and -R with only "on" is accepted
        assertEquals(1, SweepPlan.builder(base).values(SweepDimension.RDMA_CM, List.of("on")).build().size());
        // a latency sweep over sizes beyond what TestOptions accepts
        IllegalArgumentException big = refused(SweepPlan.builder(TestOptions.builder(TestKind.WRITE_LAT)
                .serverHost("p").build()).values(SweepDimension.SIZE, List.of("2", "4G")));
        assertTrue(big.getMessage().startsWith("choice size=4G: -s"), big.getMessage());
    }

    @Test
    void theNumberOfChoicesIsCapped() {
        List<String> tclasses = java.util.stream.IntStream.range(0, 16).mapToObj(Integer::toString).toList();
        List<String> sizes = java.util.stream.IntStream.range(1, 18).mapToObj(i -> Long.toString(1L << i)).toList();
        IllegalArgumentException e = refused(SweepPlan.builder(bw().build())
                .values(SweepDimension.TCLASS, tclasses).values(SweepDimension.SIZE, sizes));
        assertTrue(e.getMessage().contains("--tclasses 16 x --sizes 17 = 272 choices"), e.getMessage());
        assertTrue(e.getMessage().contains(Integer.toString(SweepPlan.MAX_CHOICES)), e.getMessage());
        // exactly the cap is fine
        assertEquals(256, SweepPlan.builder(bw().build()).values(SweepDimension.TCLASS, tclasses)
                .values(SweepDimension.SIZE, sizes.subList(0, 16)).build().size());
    }

    @Test
    void sourcesPickTheDeviceAndGidThatCarryThem() {
        SweepPlan.SourceLocator here = a -> switch (a.getHostAddress()) {
            case "10.20.0.1" -> Optional.of(new SweepPlan.SourceLocation("rxe0", 1, 1));
            case "10.20.1.1" -> Optional.of(new SweepPlan.SourceLocation("rxe1", 1, 3));
            default -> Optional.empty();
        };
        SweepPlan plan = SweepPlan.builder(bw().build())
                .values(SweepDimension.SOURCE, List.of("10.20.0.1", "10.20.1.1", "10.20.9.9")).build();
        SweepPlan.Expansion x = plan.expand(here);
        List<SweepChoice> c = x.choices();
        assertEquals("rxe0", c.get(0).options().target().device());
        assertEquals(1, c.get(0).options().target().gidIndex());
        assertEquals("rxe1", c.get(1).options().target().device());
        assertEquals(3, c.get(1).options().target().gidIndex());
        assertEquals("10.20.1.1", c.get(1).options().target().bindSourceIp());
        assertEquals(null, c.get(2).options().target().device(), "an unknown source keeps the engine's default device");
        assertEquals(1, x.notes().size());
        assertTrue(x.notes().getFirst().text().startsWith("source 10.20.9.9 is the address of no RDMA GID here"),
                x.notes().toString());
        assertEquals(2, x.notes().getFirst().choice(), "the first choice with that source");
        // without a lookup nothing is chosen
        assertEquals(null, plan.choices().get(1).options().target().device());

        // a GID dimension wins over the source's GID; a rail's device wins over the source's device
        SweepPlan withGid = SweepPlan.builder(bw().build()).values(SweepDimension.SOURCE, List.of("10.20.1.1"))
                .values(SweepDimension.GID, List.of("5")).build();
        SweepChoice g = withGid.expand(here).choices().getFirst();
        assertEquals("rxe1", g.options().target().device());
        assertEquals(5, g.options().target().gidIndex());
        SweepPlan.Expansion crossed = SweepPlan.builder(bw().build())
                .values(SweepDimension.RAIL, List.of("rxe0=10.20.0.2"))
                .values(SweepDimension.SOURCE, List.of("10.20.1.1")).build().expand(here);
        assertEquals("rxe0", crossed.choices().getFirst().options().target().device());
        assertEquals(-1, crossed.choices().getFirst().options().target().gidIndex());
        assertTrue(crossed.notes().getFirst().text().contains("is on rxe1"), crossed.notes().toString());
        // a locator that throws is a source not found, never a failed plan
        SweepPlan.Expansion broken = plan.expand(a -> {
            throw new IllegalStateException("boom");
        });
        assertEquals(3, broken.choices().size());
        assertEquals(3, broken.notes().size());
    }

    @Test
    void choicesAreImmutable() {
        SweepChoice c = SweepPlan.builder(bw().build()).values(SweepDimension.SIZE, List.of("2")).build()
                .choices().getFirst();
        assertThrows(UnsupportedOperationException.class, () -> c.dimensions().put("x", "y"));
        assertEquals(Collections.singletonList("size"), List.copyOf(c.dimensions().keySet()));
    }
}
