package io.jperf.matrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Which links of a {@link ResultMatrix} are bad and who is to blame. A link (one test) is bad when
 * it failed or its figure is beyond the {@link Threshold} (a bandwidth below it, a latency above
 * it). Every host rail's bad links are counted against the tests it took part in, and the
 * suspects are ranked:
 * <ol>
 * <li>{@link Kind#RAIL}: on more than half of the hosts the rail is a suspect (a fabric plane, not a host);</li>
 * <li>{@link Kind#HOST}: more than half of a host's rails are suspects (the host: its PCIe, NUMA, firmware);</li>
 * <li>{@link Kind#HOST_RAIL}: a host rail bad on most of its pairs (more than half, of at least two);</li>
 * <li>{@link Kind#LINK}: a bad link that none of the above explains (a cable, a switch port, a flow).</li>
 * </ol>
 * Within a kind, the larger share of bad pairs, then the more bad pairs, then the worse figure come
 * first. Immutable once computed.
 */
public final class MatrixAnalysis {

    /** What a suspect is. */
    public enum Kind { RAIL, HOST, HOST_RAIL, LINK }

    /**
     * One ranked suspect.
     *
     * @param kind  what it is
     * @param host  the host's rank (for LINK the client), -1 for RAIL
     * @param rail  the rail index (for LINK and device pairs the client's), -1 for HOST
     * @param peer  for LINK the server's rank, else -1
     * @param peerRail for LINK the server's rail, else -1
     * @param bad   bad links it took part in
     * @param tests links it took part in
     * @param worst the worst figure among its bad links that gave one (NaN when all failed)
     */
    public record Suspect(Kind kind, int host, int rail, int peer, int peerRail, int bad, int tests, double worst) {
        /** The share of its links that are bad. */
        public double share() {
            return tests == 0 ? 0 : (double) bad / tests;
        }
    }

    /**
     * One bad link.
     *
     * @param combination the rail combination
     * @param client      the client's rank
     * @param server      the server's rank
     * @param value       its figure, NaN when it failed
     * @param error       why it failed, or null
     * @param verdicts    its {@link VerdictMask}
     */
    public record Link(int combination, int client, int server, double value, String error, short verdicts) {
        public boolean failed() {
            return error != null;
        }
    }

    private final ResultMatrix matrix;
    private final Threshold threshold;
    private final double median;
    private final double limit;
    private final int tests;
    private final int failed;
    /** The bad cells, in report order: failed first, then the worst figure first. */
    private final int[] badCells;
    private final List<Suspect> suspects;
    private final double[] railMedians;

    private MatrixAnalysis(ResultMatrix matrix, Threshold threshold) {
        this.matrix = matrix;
        this.threshold = threshold;
        int n = matrix.hosts().size();
        int rails = matrix.rails().size();
        int combos = matrix.combinations();
        int run = 0;
        int fails = 0;
        for (int cell = 0; cell < matrix.cellCount(); cell++) {
            ResultMatrix.Status s = matrix.status(cell);
            run += s == ResultMatrix.Status.NONE ? 0 : 1;
            fails += s == ResultMatrix.Status.FAILED ? 1 : 0;
        }
        this.tests = run;
        this.failed = fails;
        // the figures as floats, as the matrix keeps them: 4 bytes a test while the analysis runs
        float[] all = new float[run - fails];
        int count = 0;
        this.railMedians = new double[combos];
        for (int c = 0; c < combos; c++) {
            int from = count;
            for (int cell = c * n * n; cell < (c + 1) * n * n; cell++) {
                if (matrix.status(cell) == ResultMatrix.Status.OK) {
                    all[count++] = (float) matrix.value(cell);
                }
            }
            Arrays.sort(all, from, count);
            railMedians[c] = median(all, from, count);
        }
        Arrays.sort(all);
        this.median = median(all, 0, count);
        this.limit = threshold == null ? Double.NaN : threshold.limit(median);

        int[][] hostRailTests = new int[n][rails];
        int[][] hostRailBad = new int[n][rails];
        double[][] hostRailWorst = new double[n][rails];
        for (double[] row : hostRailWorst) {
            Arrays.fill(row, Double.NaN);
        }
        long[] bad = new long[16];
        int badCount = 0;
        for (int c = 0; c < combos; c++) {
            int ra = matrix.clientRail(c);
            int rb = matrix.serverRail(c);
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    int cell = (c * n + a) * n + b;
                    ResultMatrix.Status s = matrix.status(cell);
                    if (s == ResultMatrix.Status.NONE) {
                        continue;
                    }
                    hostRailTests[a][ra]++;
                    hostRailTests[b][rb]++;
                    double v = matrix.value(cell);
                    if (s == ResultMatrix.Status.OK && !beyond(v)) {
                        continue;
                    }
                    if (badCount == bad.length) {
                        bad = Arrays.copyOf(bad, badCount * 2);
                    }
                    bad[badCount++] = ((long) sortable((float) badness(v)) << 32) | cell;
                    hostRailBad[a][ra]++;
                    hostRailBad[b][rb]++;
                    hostRailWorst[a][ra] = worse(hostRailWorst[a][ra], v);
                    hostRailWorst[b][rb] = worse(hostRailWorst[b][rb], v);
                }
            }
        }
        Arrays.sort(bad, 0, badCount);
        this.badCells = new int[badCount];
        for (int i = 0; i < badCount; i++) {
            badCells[i] = (int) bad[i];
        }
        this.suspects = rank(n, rails, hostRailTests, hostRailBad, hostRailWorst);
    }

    /**
     * @param threshold null: no threshold, only failed tests are bad links
     */
    public static MatrixAnalysis of(ResultMatrix matrix, Threshold threshold) {
        return new MatrixAnalysis(matrix, threshold);
    }

    /** What an analysis of {@code tests} tests holds at most while it runs, beyond the matrix: a figure and a bad-cell key per test. */
    public static long bytesFor(long tests) {
        return tests * (Float.BYTES + Long.BYTES + Integer.BYTES);
    }

    /** A float's bits as an int that orders as the floats do (-infinity first). */
    private static int sortable(float f) {
        int bits = Float.floatToIntBits(f);
        return bits ^ ((bits >> 31) & 0x7fffffff);
    }

    private List<Suspect> rank(int n, int rails, int[][] tests, int[][] bad, double[][] worst) {
        boolean[][] suspect = new boolean[n][rails];
        for (int h = 0; h < n; h++) {
            for (int r = 0; r < rails; r++) {
                suspect[h][r] = tests[h][r] >= 2 && bad[h][r] * 2 > tests[h][r];
            }
        }
        List<Suspect> railWide = new ArrayList<>();
        boolean[] railSuspect = new boolean[rails];
        for (int r = 0; r < rails; r++) {
            int hosts = 0;
            int b = 0;
            int t = 0;
            double w = Double.NaN;
            for (int h = 0; h < n; h++) {
                hosts += suspect[h][r] ? 1 : 0;
                b += bad[h][r];
                t += tests[h][r];
                w = worse(w, worst[h][r]);
            }
            if (n >= 3 && hosts * 2 > n) {
                railSuspect[r] = true;
                railWide.add(new Suspect(Kind.RAIL, -1, r, -1, -1, b / 2, t / 2, w));
            }
        }
        List<Suspect> hostWide = new ArrayList<>();
        List<Suspect> hostRails = new ArrayList<>();
        boolean[] hostSuspect = new boolean[n];
        for (int h = 0; h < n; h++) {
            int suspectRails = 0;
            int b = 0;
            int t = 0;
            double w = Double.NaN;
            for (int r = 0; r < rails; r++) {
                if (suspect[h][r] && !railSuspect[r]) {
                    suspectRails++;
                }
                b += bad[h][r];
                t += tests[h][r];
                w = worse(w, worst[h][r]);
            }
            if (rails >= 2 && suspectRails * 2 > rails) {
                hostSuspect[h] = true;
                hostWide.add(new Suspect(Kind.HOST, h, -1, -1, -1, b, t, w));
                continue;
            }
            for (int r = 0; r < rails; r++) {
                if (suspect[h][r] && !railSuspect[r]) {
                    hostRails.add(new Suspect(Kind.HOST_RAIL, h, r, -1, -1, bad[h][r], tests[h][r], worst[h][r]));
                }
            }
        }
        List<Suspect> links = new ArrayList<>();
        for (Link l : badLinks()) {
            int ra = matrix.clientRail(l.combination());
            int rb = matrix.serverRail(l.combination());
            boolean explained = railSuspect[ra] || railSuspect[rb] || hostSuspect[l.client()] || hostSuspect[l.server()]
                    || suspect[l.client()][ra] || suspect[l.server()][rb];
            if (!explained) {
                links.add(new Suspect(Kind.LINK, l.client(), ra, l.server(), rb, 1, 1, l.value()));
            }
        }
        Comparator<Suspect> order = Comparator.comparingDouble((Suspect s) -> -s.share())
                .thenComparingInt(s -> -s.bad()).thenComparingDouble(s -> badness(s.worst()));
        railWide.sort(order);
        hostWide.sort(order);
        hostRails.sort(order);
        List<Suspect> all = new ArrayList<>(railWide);
        all.addAll(hostWide);
        all.addAll(hostRails);
        all.addAll(links); // already in bad-link order: failed first, then the worst figure
        return List.copyOf(all);
    }

    private boolean beyond(double v) {
        if (Double.isNaN(limit)) {
            return false;
        }
        return matrix.metric().higherIsBetter() ? v < limit : v > limit;
    }

    /** Smaller is worse: a bandwidth as it is, a latency negated; NaN (failed) worst of all. */
    private double badness(double v) {
        if (Double.isNaN(v)) {
            return Double.NEGATIVE_INFINITY;
        }
        return matrix.metric().higherIsBetter() ? v : -v;
    }

    private double worse(double a, double b) {
        if (Double.isNaN(a)) {
            return b;
        }
        if (Double.isNaN(b)) {
            return a;
        }
        return badness(a) <= badness(b) ? a : b;
    }

    /** The median of the sorted {@code v[from..to)}, NaN when empty. */
    private static double median(float[] v, int from, int to) {
        int len = to - from;
        if (len == 0) {
            return Double.NaN;
        }
        int m = from + len / 2;
        return len % 2 == 1 ? v[m] : ((double) v[m - 1] + v[m]) / 2;
    }

    public ResultMatrix matrix() {
        return matrix;
    }

    /** The threshold, or null when none was given. */
    public Threshold threshold() {
        return threshold;
    }

    /** The median figure of all tests that gave one (NaN when none did). */
    public double median() {
        return median;
    }

    /** The median figure of one rail combination's tests. */
    public double median(int combination) {
        return railMedians[combination];
    }

    /** The absolute limit the threshold gives (NaN without a threshold). */
    public double limit() {
        return limit;
    }

    /** Tests that ran (gave a figure or failed). */
    public int tests() {
        return tests;
    }

    /** Tests that failed. */
    public int failed() {
        return failed;
    }

    /** Bad links: failed ones first, then the worst figures first. Built on each call. */
    public List<Link> badLinks() {
        List<Link> links = new ArrayList<>(badCells.length);
        for (int cell : badCells) {
            int c = matrix.combinationOf(cell);
            int a = matrix.clientOf(cell);
            int b = matrix.serverOf(cell);
            links.add(new Link(c, a, b, matrix.value(cell), matrix.status(cell) == ResultMatrix.Status.FAILED
                    ? matrix.error(c, a, b).orElse("failed") : null, matrix.verdicts(c, a, b)));
        }
        return links;
    }

    /** The number of bad links. */
    public int badLinkCount() {
        return badCells.length;
    }

    /** The ranked suspects (see the class comment). */
    public List<Suspect> suspects() {
        return suspects;
    }

    /** True when this cell's test failed or its figure is beyond the threshold. */
    public boolean isBad(int combination, int client, int server) {
        ResultMatrix.Status s = matrix.status(combination, client, server);
        return s == ResultMatrix.Status.FAILED
                || s == ResultMatrix.Status.OK && beyond(matrix.value(combination, client, server));
    }

    /** True when a test failed or a figure is beyond the threshold: the command exits non-zero. */
    public boolean failedThreshold() {
        return badCells.length > 0;
    }

    /** {@code gpu-3 rail mlx5_1 bad on 7 of 7 pairs}: one suspect in words. */
    public String describe(Suspect s) {
        List<String> hosts = matrix.hosts();
        List<String> rails = matrix.rails();
        String worst = Double.isNaN(s.worst()) ? "" : ", worst " + figure(s.worst());
        return switch (s.kind()) {
            case RAIL -> "rail " + rails.get(s.rail()) + ": bad on most hosts (" + s.bad() + " of " + s.tests()
                    + " links" + worst + ")";
            case HOST -> "host " + hosts.get(s.host()) + ": bad on most rails (" + s.bad() + " of " + s.tests()
                    + " host-rail tests" + worst + ")";
            case HOST_RAIL -> "host " + hosts.get(s.host()) + " rail " + rails.get(s.rail()) + ": bad on " + s.bad()
                    + " of " + s.tests() + " pairs" + worst;
            case LINK -> "link " + hosts.get(s.host()) + ":" + rails.get(s.rail()) + " -> " + hosts.get(s.peer()) + ":"
                    + rails.get(s.peerRail()) + (Double.isNaN(s.worst()) ? ": failed" : ": " + figure(s.worst()));
        };
    }

    /** {@code 12.34 Gb/s}. */
    public String figure(double v) {
        return String.format(java.util.Locale.ROOT, "%.2f %s", v, matrix.metric().unit());
    }
}
