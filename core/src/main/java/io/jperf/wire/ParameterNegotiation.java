package io.jperf.wire;

import io.jperf.options.Connection;
import io.jperf.options.TestParameters;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * perftest 6.28's {@code struct perftest_parameters_negotiate}: the test parameters in network order,
 * the sender's raw {@code struct ibv_device_attr} (host order) and, in builds with mlx5dv, a 64-bit
 * capability mask: {@value #SIZE} bytes. perftest-26.01.5 (version 6.28) exchanges it right after the
 * MTU whatever the peer's version, and refuses a peer whose parameters differ; 6.29 exchanges it only
 * with peers of 6.28 or later (jperf advertises 6.06). Only the receiver's
 * {@code attr.max_qp_rd_atom} is read from the device attributes.
 *
 * <pre>
 *   0 test_method  4 connection_type  8 verb  12 tst  16 atomicType  20 test_type  24 report_fmt
 *  32 size (u64)  40 iters (u64)  48 aes_xts  52 num_of_qps  56 duration  60 use_rdma_cm
 *  64 use_write_with_imm  68 no_enhanced_reorder  72 sig_offload  80 attr (232)  312 mlx5dv_comp_mask
 * </pre>
 * Builds without mlx5dv send 312 bytes; jperf speaks the 320-byte form of mainstream builds (rdma-core's
 * development package ships mlx5dv) and names a 312-byte peer when it meets one.
 *
 * @param testMethod       0 regular, 1 all sizes ({@code -a}), 2 run infinitely
 * @param connectionType   0 RC, 1 UC
 * @param verb             0 SEND, 2 WRITE, 4 READ, 5 ATOMIC
 * @param tst              0 latency, 1 bandwidth
 * @param atomicType       0 compare-and-swap, 1 fetch-and-add
 * @param testType         0 iterations, 1 duration ({@code -D})
 * @param reportFormat     0 Gb/s ({@code --report_gbits}), 1 MiB/s
 * @param size             message size ({@value #ALL_SIZES_MAX} with {@code -a})
 * @param iterations       iterations (0 with {@code -D})
 * @param qps              number of QPs
 * @param duration         {@code -D} seconds (perftest's default 5 otherwise)
 * @param rdmaCm           {@code -R}
 * @param maxQpRdAtom      the sender's device limit on outstanding RDMA reads per QP
 */
public record ParameterNegotiation(int testMethod, int connectionType, int verb, int tst, int atomicType, int testType,
                                   int reportFormat, long size, long iterations, int qps, int duration, boolean rdmaCm,
                                   int maxQpRdAtom) {

    /** The size of the struct in builds with mlx5dv. */
    public static final int SIZE = 320;
    /** The size in builds without mlx5dv. */
    public static final int SIZE_WITHOUT_MLX5DV = 312;
    /** perftest's size for {@code -a} in the struct (its largest message). */
    public static final long ALL_SIZES_MAX = 8_388_608;
    /** perftest's {@code VerbType} value of RDMA WRITE. */
    public static final int VERB_WRITE = 2;
    /** The version whose every peer gets the struct. */
    public static final double UNCONDITIONAL_VERSION = 6.28;

    private static final int ATTR_OFFSET = 80;
    /** {@code offsetof(struct ibv_device_attr, max_qp_rd_atom)} on x86-64 (checked against the bindings in tests). */
    static final int MAX_QP_RD_ATOM_OFFSET = 144;

    /** Whether a peer of {@code version} sends the struct to jperf (which advertises 6.06): only 6.28 does. */
    public static boolean sentBy(PerftestVersion version) {
        return !version.isJperf() && version.atLeast(UNCONDITIONAL_VERSION) && !version.atLeast(KeyFormat.DEST_64_VERSION);
    }

    /**
     * This end's struct for the agreed test {@code p}, as perftest fills it: test method 2 with
     * {@code --run_infinitely}, 1 with {@code -a}; {@code -a} sends {@value #ALL_SIZES_MAX} as the size; a
     * {@code -D} run sends 0 iterations and its duration, other runs perftest's default duration (5 s).
     *
     * @param maxQpRdAtom this end's device limit on outstanding RDMA reads per QP
     */
    public static ParameterNegotiation of(TestParameters p, int maxQpRdAtom) {
        return new ParameterNegotiation(p.runInfinitely() ? 2 : p.allSizes() ? 1 : 0,
                p.connection() == Connection.UC ? 1 : 0, p.kind().verb().perftestCode(),
                p.kind().isBandwidth() ? 1 : 0, p.atomicType() != null ? p.atomicType().perftestCode() : 0,
                p.isDuration() ? 1 : 0, p.reportGbits() ? 0 : 1, p.allSizes() ? ALL_SIZES_MAX : p.size(),
                p.isDuration() ? 0 : p.iterations(), p.numQps(),
                p.isDuration() ? p.durationSeconds() : TestParameters.DEFAULT_INFINITE_INTERVAL, p.rdmaCm(),
                maxQpRdAtom);
    }

    /** The {@value #SIZE} bytes perftest sends for these values. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putInt(0, testMethod).putInt(4, connectionType).putInt(8, verb).putInt(12, tst).putInt(16, atomicType)
                .putInt(20, testType).putInt(24, reportFormat).putLong(32, size).putLong(40, iterations)
                .putInt(48, 0).putInt(52, qps).putInt(56, duration).putInt(60, rdmaCm ? 1 : 0)
                .putInt(64, 0).putInt(68, 0).putInt(72, 0);
        b.order(ByteOrder.LITTLE_ENDIAN).putInt(ATTR_OFFSET + MAX_QP_RD_ATOM_OFFSET, maxQpRdAtom);
        return b.array();
    }

    /** Reads a peer's struct ({@value #SIZE} bytes). */
    public static ParameterNegotiation decode(byte[] bytes) throws ProtocolException {
        if (bytes.length != SIZE) {
            throw new ProtocolException("the peer's parameter negotiation has " + bytes.length + " bytes, not " + SIZE);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int maxRd = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(ATTR_OFFSET + MAX_QP_RD_ATOM_OFFSET);
        return new ParameterNegotiation(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16),
                b.getInt(20), b.getInt(24), b.getLong(32), b.getLong(40), b.getInt(52), b.getInt(56), b.getInt(60) != 0,
                maxRd);
    }

    /**
     * What differs from the peer's values, as perftest would refuse it ({@code "size: 65536 here, 4096 at
     * the peer"}); empty when the test can run.
     */
    public List<String> mismatches(ParameterNegotiation peer) {
        Objects.requireNonNull(peer, "peer");
        List<String> out = new ArrayList<>();
        compare(out, "test method (-a)", name(testMethod, "regular", "all sizes", "infinitely"),
                name(peer.testMethod, "regular", "all sizes", "infinitely"));
        compare(out, "connection (-c)", name(connectionType, "RC", "UC", "UD", "RawEth", "XRC", "DC", "SRD"),
                name(peer.connectionType, "RC", "UC", "UD", "RawEth", "XRC", "DC", "SRD"));
        compare(out, "verb", name(verb, "SEND", "SEND_IMM", "WRITE", "WRITE_IMM", "READ", "ATOMIC"),
                name(peer.verb, "SEND", "SEND_IMM", "WRITE", "WRITE_IMM", "READ", "ATOMIC"));
        compare(out, "test", name(tst, "latency", "bandwidth", "latency by bandwidth", "fs rate"),
                name(peer.tst, "latency", "bandwidth", "latency by bandwidth", "fs rate"));
        compare(out, "atomic type (-A)", name(atomicType, "CMP_AND_SWAP", "FETCH_AND_ADD"),
                name(peer.atomicType, "CMP_AND_SWAP", "FETCH_AND_ADD"));
        compare(out, "iterations or duration (-n/-D)", name(testType, "iterations", "duration"),
                name(peer.testType, "iterations", "duration"));
        compare(out, "report format (--report_gbits)", name(reportFormat, "Gb/s", "MiB/s"),
                name(peer.reportFormat, "Gb/s", "MiB/s"));
        compare(out, "size (-s)", Long.toUnsignedString(size), Long.toUnsignedString(peer.size));
        compare(out, "iterations (-n)", Long.toUnsignedString(iterations), Long.toUnsignedString(peer.iterations));
        compare(out, "QPs (-q)", Integer.toString(qps), Integer.toString(peer.qps));
        compare(out, "duration (-D)", Integer.toString(duration), Integer.toString(peer.duration));
        compare(out, "RDMA CM (-R)", rdmaCm ? "on" : "off", peer.rdmaCm ? "on" : "off");
        return out;
    }

    private static void compare(List<String> out, String what, String ours, String theirs) {
        if (!ours.equals(theirs)) {
            out.add(what + ": " + ours + " here, " + theirs + " at the peer");
        }
    }

    private static String name(int value, String... names) {
        return value >= 0 && value < names.length ? names[value] : String.format(Locale.ROOT, "%d", value);
    }
}
