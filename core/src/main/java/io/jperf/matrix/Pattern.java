package io.jperf.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which host pairs a matrix tests, as rounds in which each host is in at most one pair. In each
 * pair the first host runs the client end. Stateless.
 */
public enum Pattern {
    /**
     * Every unordered pair once, by the round-robin "circle" method: host {@code n-1} stays, the
     * others rotate; {@code n-1} rounds of {@code n/2} pairs for even {@code n}, {@code n} rounds of
     * {@code (n-1)/2} for odd {@code n} (one host rests each round).
     */
    ALL_PAIRS,
    /** Host {@code i} with host {@code i+1} (mod n): 2 rounds for even n, 3 for odd n, 1 for n = 2. */
    RING,
    /** Host 0 with every other host, one pair per round: n-1 rounds. */
    ONE_TO_ALL,
    /** Host {@code i} of the first half with host {@code i + n/2} of the second, all at once: one round. */
    BISECTION;

    /** The option value: {@code all-pairs}, {@code ring}, {@code one-to-all}, {@code bisection}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @throws IllegalArgumentException naming the choices
     */
    public static Pattern parse(String text) {
        for (Pattern p : values()) {
            if (p.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown pattern '" + text + "': all-pairs, ring, one-to-all or bisection");
    }

    /**
     * The rounds for {@code n} hosts: each round an array of host indexes, client and server of pair
     * {@code k} at {@code 2k} and {@code 2k+1}.
     */
    public List<int[]> hostRounds(int n) {
        if (n < 2) {
            return List.of();
        }
        return switch (this) {
            case ALL_PAIRS -> circle(n);
            case RING -> ring(n);
            case ONE_TO_ALL -> oneToAll(n);
            case BISECTION -> List.of(bisection(n));
        };
    }

    /** How many rounds {@link #hostRounds} gives for {@code n} hosts, without building them. */
    public int roundCount(int n) {
        if (n < 2) {
            return 0;
        }
        return switch (this) {
            case ALL_PAIRS -> n % 2 == 0 ? n - 1 : n;
            case RING -> n == 2 ? 1 : n % 2 == 0 ? 2 : 3;
            case ONE_TO_ALL -> n - 1;
            case BISECTION -> 1;
        };
    }

    /** How many pairs {@link #hostRounds} gives for {@code n} hosts, without building them. */
    public long pairCount(int n) {
        if (n < 2) {
            return 0;
        }
        return switch (this) {
            case ALL_PAIRS -> (long) n * (n - 1) / 2;
            case RING -> n == 2 ? 1 : n;
            case ONE_TO_ALL -> n - 1;
            case BISECTION -> n / 2;
        };
    }

    private static List<int[]> circle(int n) {
        int m = n % 2 == 0 ? n : n + 1; // odd: a phantom host m-1; whoever meets it rests that round
        List<int[]> rounds = new ArrayList<>(m - 1);
        for (int r = 0; r < m - 1; r++) {
            int[] pairs = new int[n % 2 == 0 ? n : n - 1];
            int k = 0;
            for (int i = 0; i < m / 2; i++) {
                int a = i == 0 ? m - 1 : (r + i) % (m - 1);
                int b = (r - i + (m - 1)) % (m - 1);
                if (a == n || b == n) {
                    continue; // the phantom
                }
                // alternate who is the client, so no host is the client in every round
                boolean swap = i == 0 ? r % 2 == 1 : i % 2 == 1;
                pairs[k++] = swap ? b : a;
                pairs[k++] = swap ? a : b;
            }
            rounds.add(pairs);
        }
        return rounds;
    }

    private static List<int[]> ring(int n) {
        if (n == 2) {
            return List.of(new int[] {0, 1});
        }
        List<int[]> rounds = new ArrayList<>();
        List<Integer> evens = new ArrayList<>();
        List<Integer> odds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (n % 2 == 1 && i == n - 1) {
                continue; // the closing edge n-1 -> 0 meets both other rounds: a round of its own
            }
            (i % 2 == 0 ? evens : odds).add(i);
        }
        rounds.add(edges(evens, n));
        rounds.add(edges(odds, n));
        if (n % 2 == 1) {
            rounds.add(new int[] {n - 1, 0});
        }
        return rounds;
    }

    private static int[] edges(List<Integer> from, int n) {
        int[] pairs = new int[from.size() * 2];
        for (int k = 0; k < from.size(); k++) {
            pairs[2 * k] = from.get(k);
            pairs[2 * k + 1] = (from.get(k) + 1) % n;
        }
        return pairs;
    }

    private static List<int[]> oneToAll(int n) {
        List<int[]> rounds = new ArrayList<>(n - 1);
        for (int i = 1; i < n; i++) {
            rounds.add(new int[] {0, i});
        }
        return rounds;
    }

    private static int[] bisection(int n) {
        int half = n / 2;
        int[] pairs = new int[half * 2];
        for (int i = 0; i < half; i++) {
            pairs[2 * i] = i;
            pairs[2 * i + 1] = i + half;
        }
        return pairs;
    }
}
