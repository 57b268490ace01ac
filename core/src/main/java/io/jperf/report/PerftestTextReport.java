package io.jperf.report;

import io.jperf.options.OutputMode;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;

/**
 * perftest's console output, character for character: the dashed lines, the header block, the address
 * lines and the BW and latency tables (perftest 6.06's layout; see {@link Flavor} for the BW unit label).
 * Each method returns complete lines ending in {@code \n}. Stateless and thread-safe.
 */
public final class PerftestTextReport {

    /** perftest's separator: 87 dashes. */
    public static final String DASHED_LINE = "-".repeat(87) + "\n";

    /** Which perftest wording of the bandwidth table to reproduce. */
    public enum Flavor {
        /** Debian's perftest 6.06 exactly: {@code BW peak[MB/sec]} (the unit is 2^20 bytes all the same). */
        PERFTEST_6_06("MB/sec", "\t\t   "),
        /** Current upstream wording {@code BW peak[MiB/sec]}, whose rows are two spaces wider. */
        MIB_LABELS("MiB/sec", "\t\t     ");

        private final String mibLabel;
        private final String rateGap;

        Flavor(String mibLabel, String rateGap) {
            this.mibLabel = mibLabel;
            this.rateGap = rateGap;
        }
    }

    private static final String LAT_TABLE_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n";

    private final Flavor flavor;

    /** The {@link Flavor#MIB_LABELS} report. */
    public PerftestTextReport() {
        this(Flavor.MIB_LABELS);
    }

    public PerftestTextReport(Flavor flavor) {
        this.flavor = flavor;
    }

    /**
     * The header block between two dashed lines, as perftest prints it once the connection is set up.
     * On an rdma_cm server it also asks for the client, as perftest does.
     */
    public String header(TestHeader h) {
        StringBuilder sb = new StringBuilder(1024).append(DASHED_LINE);
        sb.append("                    ").append(h.title()).append('\n');
        sb.append(" Dual-port       : OFF\t\tDevice         : ").append(h.device()).append('\n');
        sb.append(" Number of qps   : ").append(h.numQps()).append("\t\tTransport type : ").append(h.transport())
                .append('\n');
        sb.append(" Connection type : ").append(h.connection()).append("\t\tUsing SRQ      : ")
                .append(onOff(h.usingSrq())).append('\n');
        sb.append(" PCIe relax order: ").append(h.pcieRelaxedOrdering()).append('\n');
        sb.append(" ibv_wr* API     : ").append(onOff(h.wrApi())).append('\n');
        if (!h.server() || h.bidirectional()) {
            sb.append(" TX depth        : ").append(h.txDepth()).append('\n');
        }
        if (h.postList() > 1) {
            sb.append(" Post List       : ").append(h.postList()).append('\n');
        }
        if (h.showsRxDepth()) {
            sb.append(" RX depth        : ").append(h.rxDepth()).append('\n');
        }
        if (h.kind().isBandwidth()) {
            sb.append(" CQ Moderation   : ").append(h.cqModeration()).append('\n');
        }
        sb.append(" Mtu             : ").append(h.mtuBytes()).append("[B]\n");
        sb.append(" Link type       : ").append(h.linkType().label()).append('\n');
        if (h.gidIndex() != -1) {
            sb.append(" GID index       : ").append(h.gidIndex()).append('\n');
        }
        if (h.kind().verb().usesOutstandingReads()) {
            sb.append(" Outstand reads  : ").append(h.outstandingReads()).append('\n');
        } else {
            sb.append(" Max inline data : ").append(h.maxInlineBytes()).append("[B]\n");
        }
        sb.append(" rdma_cm QPs\t : ").append(onOff(h.rdmaCm())).append('\n');
        sb.append(" Data ex. method : ").append(h.dataExchangeMethod());
        if (h.rdmaCm()) {
            if (h.tos() != null) {
                sb.append(" \tTOS    : ").append(h.tos());
            }
            if (h.server()) {
                sb.append('\n').append(DASHED_LINE).append(" Waiting for client rdma_cm QP to connect\n")
                        .append(" Please run the same command with the IB/RoCE interface IP");
            }
        }
        return sb.append('\n').append(DASHED_LINE).toString();
    }

    /**
     * perftest's address line for one QP end, plus its GID line when the end sent one (a GID index is
     * in use; the peer's key message carries its GID but not its index, so its line is printed too):
     * {@code " local address: LID %#04x QPN %#06x PSN %#06x RKey %#08x VAddr %#016llx"} and
     * {@code " GID: "} with the 16 bytes as decimal {@code %02d} joined by {@code ':'}.
     *
     * @param local true for {@code local address}, false for {@code remote address}
     */
    public String addressLines(EndpointInfo e, boolean local) {
        StringBuilder sb = new StringBuilder(200);
        sb.append(' ').append(local ? "local" : "remote").append(" address: LID ")
                .append(CFormat.alternateHex(e.lid(), 4))
                .append(" QPN ").append(CFormat.alternateHex(e.qpn(), 6))
                .append(" PSN ").append(CFormat.alternateHex(e.psn(), 6))
                .append(" RKey ").append(CFormat.alternateHex(e.rkey(), 8))
                .append(" VAddr ").append(CFormat.alternateHex(e.vaddr(), 16)).append('\n');
        byte[] gid = e.gid();
        if (gid != null) {
            sb.append(" GID: ");
            for (int i = 0; i < gid.length; i++) {
                sb.append(i == 0 ? "" : ":").append(CFormat.twoDigits(gid[i] & 0xff));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The dashed line and column titles of the BW table; nothing in a {@code --output} mode. */
    public String bandwidthTableHeader(BandwidthResult.Unit unit, OutputMode mode) {
        if (mode != OutputMode.NONE) {
            return "";
        }
        String label = unit == BandwidthResult.Unit.MIB_PER_SEC ? flavor.mibLabel : unit.label();
        return DASHED_LINE + " #bytes     #iterations    BW peak[" + label + "]    BW average[" + label
                + "]   MsgRate[Mpps]\n";
    }

    /**
     * One BW row, or with {@code --output} just the number ({@code %lf}). Like perftest, averages below 0.1
     * Gb/s are shown with 6 decimals.
     */
    public String bandwidthRow(BandwidthResult r, OutputMode mode) {
        switch (mode) {
            case BANDWIDTH -> {
                return CFormat.fixed(r.average(), 6) + "\n";
            }
            case MESSAGE_RATE -> {
                return CFormat.fixed(r.messageRateMpps(), 6) + "\n";
            }
            case LATENCY -> throw new IllegalArgumentException("--output=latency does not apply to bandwidth");
            default -> {
            }
        }
        boolean extraPrecision = r.unit() == BandwidthResult.Unit.GBIT_PER_SEC && r.average() < 0.1;
        StringBuilder sb = new StringBuilder(96).append(' ').append(CFormat.left(Long.toString(r.sizeBytes()), 7))
                .append("    ");
        if (extraPrecision) {
            sb.append(Long.toUnsignedString(r.iterations())).append("           ")
                    .append(CFormat.left(CFormat.fixed(r.peak(), 6), 7)).append("            ")
                    .append(CFormat.left(CFormat.fixed(r.average(), 6), 7)).append("            ")
                    .append(CFormat.left(CFormat.fixed(r.messageRateMpps(), 6), 7));
        } else {
            sb.append(CFormat.left(Long.toUnsignedString(r.iterations()), 10)).append("       ")
                    .append(CFormat.left(CFormat.fixed(r.peak(), 2), 7)).append("            ")
                    .append(CFormat.left(CFormat.fixed(r.average(), 2), 7)).append(flavor.rateGap)
                    .append(CFormat.left(CFormat.fixed(r.messageRateMpps(), 6), 7));
        }
        return sb.append('\n').toString();
    }

    /**
     * perftest's {@code --report-both} block after a bidirectional row: each side's own row under a
     * "Local results" and a "Remote results" title. As perftest, the dashed lines and column titles are
     * printed in every {@code --output} mode too, the rows as that mode prints them.
     */
    public String bothSides(BandwidthResult local, BandwidthResult remote, OutputMode mode) {
        String titles = bandwidthTableHeader(local.unit(), OutputMode.NONE).substring(DASHED_LINE.length());
        return DASHED_LINE + "\n Local results: \n" + DASHED_LINE + titles + bandwidthRow(local, mode)
                + DASHED_LINE + "\n Remote results: \n" + DASHED_LINE + titles + bandwidthRow(remote, mode);
    }

    /** The dashed line and column titles of the latency table; nothing in a {@code --output} mode. */
    public String latencyTableHeader(OutputMode mode) {
        return mode == OutputMode.NONE ? DASHED_LINE + LAT_TABLE_HEADER : "";
    }

    /** One latency row, or with {@code --output=latency} just the average ({@code %lf}). */
    public String latencyRow(LatencyResult r, OutputMode mode) {
        switch (mode) {
            case LATENCY -> {
                return CFormat.fixed(r.avgUs(), 6) + "\n";
            }
            case BANDWIDTH, MESSAGE_RATE ->
                    throw new IllegalArgumentException("--output=" + mode.flagValue() + " does not apply to latency");
            default -> {
            }
        }
        return ' ' + CFormat.left(Long.toString(r.sizeBytes()), 7) + ' ' + Long.toUnsignedString(r.iterations())
                + "          " + lat(r.minUs()) + "        " + lat(r.maxUs()) + "      " + lat(r.typicalUs())
                + "  \t       " + lat(r.avgUs()) + "     \t" + lat(r.stdevUs()) + "\t\t" + lat(r.p99Us())
                + " \t\t" + lat(r.p999Us()) + "\n";
    }

    /**
     * perftest's sample list of {@code -U} (unsorted) and {@code -H} (sorted): a {@code #, usec} title, then
     * one {@code N, VALUE} line per sample, N from 1, VALUE as C's {@code %g}.
     */
    public String latencySamples(double[] us) {
        StringBuilder sb = new StringBuilder(16 + us.length * 14).append("#, usec\n");
        for (int i = 0; i < us.length; i++) {
            sb.append(i + 1).append(", ").append(CFormat.general(us[i])).append('\n');
        }
        return sb.toString();
    }

    /** The dashed line that closes a table; nothing in a {@code --output} mode. */
    public String tableFooter(OutputMode mode) {
        return mode == OutputMode.NONE ? DASHED_LINE : "";
    }

    private static String lat(double us) {
        return CFormat.left(CFormat.fixed(us, 2), 7);
    }

    private static String onOff(boolean on) {
        return on ? "ON" : "OFF";
    }
}
