package io.jperf.matrix;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The coordinator's store of a matrix's results, dense and compact: for every (rail combination,
 * client, server) one float (the figure, NaN when there is none), one status byte and a
 * {@link VerdictMask} ({@value #BYTES_PER_CELL} bytes a cell), plus the text of each failure. The
 * points' full path records and verdicts are not kept here: the coordinator streams them to the
 * points file as they arrive. So the coordinator's memory is {@link #bytesFor} and does not grow
 * with the path records.
 *
 * <p>Threading: the coordinator's threads record concurrently (each cell once); reading is for
 * after the run, or under the same lock.
 */
public final class ResultMatrix {
    /** Bytes a cell takes: a float, a status byte and a two-byte verdict mask. */
    public static final int BYTES_PER_CELL = Float.BYTES + 1 + Short.BYTES;
    /** Failure texts are cut to this many characters. */
    static final int MAX_ERROR_CHARS = 240;
    /** At most this many failure texts are kept (the points file has every one); later failures keep their status. */
    static final int MAX_ERRORS = 65_536;

    /** A cell's state. */
    public enum Status {
        /** Not scheduled, or not run (yet). */
        NONE,
        /** Ran and gave a figure. */
        OK,
        /** Did not run to a figure: the test failed or the agent did not answer. */
        FAILED
    }

    private final List<String> hosts;
    private final List<String> rails;
    private final RailMode railMode;
    private final Metric metric;
    private final int n;
    private final int combos;
    private final float[] values;
    private final byte[] status;
    private final short[] verdicts;
    private final Map<Integer, String> errors = new HashMap<>();

    /**
     * @param hosts    the members in rank order
     * @param rails    a name per rail index (e.g. the device), the same on every host
     */
    public ResultMatrix(List<String> hosts, List<String> rails, RailMode railMode, Metric metric) {
        this.hosts = List.copyOf(hosts);
        this.rails = List.copyOf(rails);
        this.railMode = railMode;
        this.metric = metric;
        this.n = hosts.size();
        this.combos = railMode.combinationCount(rails.size());
        long cells = cells(n, combos);
        if (cells > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(n + " hosts x " + combos + " rail combinations is too many cells ("
                    + cells + ") for one coordinator");
        }
        values = new float[(int) cells];
        java.util.Arrays.fill(values, Float.NaN);
        status = new byte[(int) cells];
        verdicts = new short[(int) cells];
    }

    /** What storing the results of {@code hosts} hosts and {@code combos} rail combinations takes, in bytes. */
    public static long bytesFor(int hosts, int combos) {
        return cells(hosts, combos) * BYTES_PER_CELL;
    }

    /** What this matrix's arrays take, in bytes (failure texts aside). */
    public long bytesUsed() {
        return (long) values.length * Float.BYTES + status.length + (long) verdicts.length * Short.BYTES;
    }

    private static long cells(int hosts, int combos) {
        return (long) hosts * hosts * combos;
    }

    public List<String> hosts() {
        return hosts;
    }

    public List<String> rails() {
        return rails;
    }

    public RailMode railMode() {
        return railMode;
    }

    public Metric metric() {
        return metric;
    }

    /** The number of rail combinations: rails (per-rail) or rails squared (device pairs). */
    public int combinations() {
        return combos;
    }

    /** The combination index of a client rail and a server rail. */
    public int combination(int clientRail, int serverRail) {
        if (railMode == RailMode.PER_RAIL) {
            if (clientRail != serverRail) {
                throw new IllegalArgumentException("per-rail pairs rail r with rail r (got " + clientRail + " -> "
                        + serverRail + ")");
            }
            return clientRail;
        }
        return clientRail * rails.size() + serverRail;
    }

    /** The client rail of combination {@code c}. */
    public int clientRail(int c) {
        return railMode == RailMode.PER_RAIL ? c : c / rails.size();
    }

    /** The server rail of combination {@code c}. */
    public int serverRail(int c) {
        return railMode == RailMode.PER_RAIL ? c : c % rails.size();
    }

    /** {@code mlx5_0} per rail, {@code mlx5_0>mlx5_1} for device pairs. */
    public String combinationName(int c) {
        return railMode == RailMode.PER_RAIL ? rails.get(c) : rails.get(clientRail(c)) + ">" + rails.get(serverRail(c));
    }

    /** Records a test that gave a figure. */
    public synchronized void record(PairTest t, double value, short verdictMask) {
        int i = index(t);
        values[i] = (float) value;
        status[i] = (byte) Status.OK.ordinal();
        verdicts[i] = verdictMask;
    }

    /** Records a test that did not give a figure, and why. */
    public synchronized void fail(PairTest t, String error, short verdictMask) {
        int i = index(t);
        values[i] = Float.NaN;
        status[i] = (byte) Status.FAILED.ordinal();
        verdicts[i] = verdictMask;
        String e = String.valueOf(error).lines().findFirst().orElse("");
        if (errors.size() < MAX_ERRORS) {
            errors.put(i, e.length() > MAX_ERROR_CHARS ? e.substring(0, MAX_ERROR_CHARS) + "..." : e);
        }
    }

    public synchronized Status status(int combination, int client, int server) {
        return Status.values()[status[index(combination, client, server)]];
    }

    /** The figure, NaN unless {@link Status#OK}. */
    public synchronized double value(int combination, int client, int server) {
        return values[index(combination, client, server)];
    }

    public synchronized short verdicts(int combination, int client, int server) {
        return verdicts[index(combination, client, server)];
    }

    /** Why the test failed; empty when it did not, or when {@value #MAX_ERRORS} texts were kept already. */
    public synchronized Optional<String> error(int combination, int client, int server) {
        return Optional.ofNullable(errors.get(index(combination, client, server)));
    }

    /** The number of cells: hosts x hosts x combinations. */
    int cellCount() {
        return status.length;
    }

    synchronized Status status(int cell) {
        return Status.values()[status[cell]];
    }

    synchronized double value(int cell) {
        return values[cell];
    }

    int combinationOf(int cell) {
        return cell / (n * n);
    }

    int clientOf(int cell) {
        return cell / n % n;
    }

    int serverOf(int cell) {
        return cell % n;
    }

    private int index(PairTest t) {
        return index(combination(t.clientRail(), t.serverRail()), t.client(), t.server());
    }

    private int index(int combination, int client, int server) {
        if (combination < 0 || combination >= combos || client < 0 || client >= n || server < 0 || server >= n) {
            throw new IndexOutOfBoundsException("cell " + combination + "/" + client + "/" + server);
        }
        return (combination * n + client) * n + server;
    }
}
