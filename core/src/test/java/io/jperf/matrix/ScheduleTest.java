package io.jperf.matrix;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleTest {

    @Test
    void allPairsCoversEveryUnorderedPairOnceOnEveryRail() {
        for (int n = 2; n <= 17; n++) {
            Schedule s = Schedule.of(Pattern.ALL_PAIRS, n, 3, RailMode.PER_RAIL);
            Map<String, Integer> seen = countPairs(s);
            assertEquals(n * (n - 1) / 2 * 3, seen.size(), "n=" + n);
            seen.forEach((k, v) -> assertEquals(1, v, k));
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    for (int r = 0; r < 3; r++) {
                        assertTrue(seen.containsKey(a + "-" + b + "@" + r + "/" + r), a + "-" + b + " rail " + r);
                    }
                }
            }
            assertEquals((n % 2 == 0 ? n - 1 : n) * 3, s.roundCount(), "rounds for n=" + n);
            assertEquals((long) n * (n - 1) / 2 * 3, s.testCount());
            assertNoHostTwiceInARound(s);
        }
    }

    @Test
    void allPairsRoundsAreFull() {
        Schedule even = Schedule.of(Pattern.ALL_PAIRS, 8, 1, RailMode.PER_RAIL);
        even.rounds().forEach(r -> assertEquals(4, r.size()));
        Schedule odd = Schedule.of(Pattern.ALL_PAIRS, 7, 1, RailMode.PER_RAIL);
        odd.rounds().forEach(r -> assertEquals(3, r.size()));
    }

    @Test
    void allPairsSharesTheClientRole() {
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, 8, 1, RailMode.PER_RAIL);
        int[] asClient = new int[8];
        s.rounds().forEach(r -> r.forEach(t -> asClient[t.client()]++));
        for (int c : asClient) {
            assertTrue(c >= 2 && c <= 5, java.util.Arrays.toString(asClient));
        }
    }

    @Test
    void devicePairsTestEveryRailAgainstEveryRail() {
        Schedule s = Schedule.of(Pattern.ALL_PAIRS, 4, 2, RailMode.DEVICE_PAIRS);
        Map<String, Integer> seen = countPairs(s);
        assertEquals(6 * 4, seen.size());
        assertTrue(seen.containsKey("0-1@0/1") || seen.containsKey("0-1@1/0"));
        assertEquals(3 * 4, s.roundCount());
        assertNoHostTwiceInARound(s);
    }

    @Test
    void ring() {
        for (int n = 2; n <= 9; n++) {
            Schedule s = Schedule.of(Pattern.RING, n, 1, RailMode.PER_RAIL);
            Map<String, Integer> seen = countPairs(s);
            assertEquals(n == 2 ? 1 : n, seen.size(), "n=" + n);
            for (int i = 0; i < n && n > 2; i++) {
                assertTrue(seen.containsKey(key(Math.min(i, (i + 1) % n), Math.max(i, (i + 1) % n), 0, 0)), "edge " + i + " n=" + n);
            }
            assertEquals(n == 2 ? 1 : n % 2 == 0 ? 2 : 3, s.roundCount(), "n=" + n);
            assertEquals(Pattern.RING.roundCount(n), s.roundCount());
            assertNoHostTwiceInARound(s);
        }
    }

    @Test
    void oneToAll() {
        Schedule s = Schedule.of(Pattern.ONE_TO_ALL, 5, 2, RailMode.PER_RAIL);
        assertEquals(4 * 2, s.roundCount());
        s.rounds().forEach(r -> {
            assertEquals(1, r.size());
            assertEquals(0, r.getFirst().client());
        });
        assertEquals(4 * 2, countPairs(s).size());
    }

    @Test
    void bisectionPairsAcrossTheHalvesInOneRound() {
        Schedule s = Schedule.of(Pattern.BISECTION, 8, 1, RailMode.PER_RAIL);
        assertEquals(1, s.roundCount());
        List<PairTest> round = s.round(0);
        assertEquals(4, round.size());
        round.forEach(t -> {
            assertTrue(t.client() < 4);
            assertEquals(t.client() + 4, t.server());
        });
        assertEquals(3, Schedule.of(Pattern.BISECTION, 7, 1, RailMode.PER_RAIL).round(0).size());
        assertNoHostTwiceInARound(s);
    }

    @Test
    void countsWithoutBuildingAgreeWithTheRounds() {
        for (Pattern p : Pattern.values()) {
            for (int n = 2; n <= 12; n++) {
                Schedule s = Schedule.of(p, n, 1, RailMode.PER_RAIL);
                assertEquals(p.roundCount(n), s.roundCount(), p + " n=" + n);
                assertEquals(p.pairCount(n), s.testCount(), p + " n=" + n);
            }
        }
    }

    @Test
    void refusesTooFewHostsOrRails() {
        assertThrows(IllegalArgumentException.class, () -> Schedule.of(Pattern.ALL_PAIRS, 1, 1, RailMode.PER_RAIL));
        assertThrows(IllegalArgumentException.class, () -> Schedule.of(Pattern.ALL_PAIRS, 2, 0, RailMode.PER_RAIL));
        assertEquals(Pattern.ONE_TO_ALL, Pattern.parse("one-to-all"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Pattern.parse("mesh")).getMessage()
                .contains("all-pairs, ring"));
    }

    private static void assertNoHostTwiceInARound(Schedule s) {
        int index = 0;
        for (List<PairTest> round : s.rounds()) {
            Set<Integer> busy = new HashSet<>();
            for (PairTest t : round) {
                assertEquals(index, t.round());
                assertTrue(busy.add(t.client()), "host " + t.client() + " twice in round " + index);
                assertTrue(busy.add(t.server()), "host " + t.server() + " twice in round " + index);
            }
            index++;
        }
        assertEquals(s.roundCount(), index);
    }

    /** Unordered pair + rails -> how often it was scheduled. */
    private static Map<String, Integer> countPairs(Schedule s) {
        Map<String, Integer> seen = new HashMap<>();
        s.rounds().forEach(r -> r.forEach(t -> seen.merge(
                t.client() < t.server() ? key(t.client(), t.server(), t.clientRail(), t.serverRail())
                        : key(t.server(), t.client(), t.serverRail(), t.clientRail()), 1, Integer::sum)));
        return seen;
    }

    private static String key(int a, int b, int ra, int rb) {
        return a + "-" + b + "@" + ra + "/" + rb;
    }
}
