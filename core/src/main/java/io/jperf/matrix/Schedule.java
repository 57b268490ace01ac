package io.jperf.matrix;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The rounds of a matrix: each host is in at most one test per round. The host pairs of a
 * {@link Pattern}, each tested on the rail combinations of a {@link RailMode}: round
 * {@code h * C + c} runs host round {@code h} on combination {@code c} (all rails of a pair are
 * tested close together in time). Rounds are built when asked for, so a schedule of 1024 hosts x 8
 * rails (8184 rounds, 4.2 million tests) costs only its host rounds. Immutable.
 */
public final class Schedule {
    private final Pattern pattern;
    private final int hosts;
    private final int rails;
    private final RailMode railMode;
    private final List<int[]> hostRounds;
    private final List<int[]> combinations;

    private Schedule(Pattern pattern, int hosts, int rails, RailMode railMode) {
        this.pattern = pattern;
        this.hosts = hosts;
        this.rails = rails;
        this.railMode = railMode;
        this.hostRounds = pattern.hostRounds(hosts);
        this.combinations = railMode.combinations(rails);
    }

    /**
     * @throws IllegalArgumentException when there are fewer than 2 hosts or no rail
     */
    public static Schedule of(Pattern pattern, int hosts, int rails, RailMode railMode) {
        if (hosts < 2) {
            throw new IllegalArgumentException("a matrix needs at least 2 hosts (got " + hosts + ")");
        }
        if (rails < 1 || rails > 64) {
            throw new IllegalArgumentException("rails per host must be 1..64 (got " + rails + ")");
        }
        return new Schedule(pattern, hosts, rails, railMode);
    }

    public Pattern pattern() {
        return pattern;
    }

    public int hosts() {
        return hosts;
    }

    public int rails() {
        return rails;
    }

    public RailMode railMode() {
        return railMode;
    }

    /** The number of rounds. */
    public int roundCount() {
        return hostRounds.size() * combinations.size();
    }

    /** The number of tests in all rounds. */
    public long testCount() {
        long pairs = 0;
        for (int[] r : hostRounds) {
            pairs += r.length / 2;
        }
        return pairs * combinations.size();
    }

    /** The most tests any round runs at once. */
    public int widestRound() {
        int widest = 0;
        for (int[] r : hostRounds) {
            widest = Math.max(widest, r.length / 2);
        }
        return widest;
    }

    /** The tests of round {@code index}. */
    public List<PairTest> round(int index) {
        int[] pairs = hostRounds.get(index / combinations.size());
        int[] combo = combinations.get(index % combinations.size());
        List<PairTest> tests = new ArrayList<>(pairs.length / 2);
        for (int k = 0; k < pairs.length; k += 2) {
            tests.add(new PairTest(index, pairs[k], pairs[k + 1], combo[0], combo[1]));
        }
        return tests;
    }

    /** Every round, in order. */
    public Iterable<List<PairTest>> rounds() {
        return () -> new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < roundCount();
            }

            @Override
            public List<PairTest> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return round(next++);
            }
        };
    }
}
