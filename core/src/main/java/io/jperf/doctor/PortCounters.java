package io.jperf.doctor;

import io.jperf.path.Sysfs;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;
import java.util.Set;

/**
 * A port's counters as sysfs shows them: {@code /sys/class/infiniband/DEV/ports/N/counters} (the
 * IB port counters, {@code counters.NAME}) and {@code hw_counters} (the driver's, {@code hw.NAME};
 * rxe's are e.g. {@code rcvd_seq_err}, {@code retry_exceeded_err}, {@code duplicate_request}), each
 * sorted into errors/retransmits, congestion (CNP/ECN) and traffic by its name.
 */
final class PortCounters {
    /** What a counter counts. */
    enum Kind {
        /** Drops, errors, out-of-sequence packets, retries and retransmits: each one is loss or a fault. */
        ERROR,
        /** CNPs sent or handled, ECN-marked packets: the fabric is congested. */
        CONGESTION,
        /** Packets, bytes, operations: how much went through. */
        TRAFFIC
    }

    /** Words (between underscores) that make a counter one of errors or retransmits, e.g. {@code rcvd_seq_err}. */
    private static final Set<String> ERROR_WORDS = Set.of("err", "error", "errors", "discard", "discards", "discarded",
        "drop", "drops", "dropped", "retry", "retries", "retrans", "timeout", "downed", "nak", "overrun", "symbol",
        "integrity", "constraint", "violation", "rnr", "duplicate", "restart");

    private PortCounters() {
    }

    static Kind kind(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.contains("cnp") || n.contains("ecn")) {
            return Kind.CONGESTION;
        }
        if (n.contains("out_of_seq")) {
            return Kind.ERROR;
        }
        for (String w : n.split("_")) {
            if (ERROR_WORDS.contains(w)) {
                return Kind.ERROR;
            }
        }
        return Kind.TRAFFIC; // ack_deferred, sent_pkts, rdma_sends, port_xmit_wait, lifespan...
    }

    /** Every counter of the port, {@code counters.*} then {@code hw.*}. */
    static SequencedMap<String, Long> read(Sysfs sys, String device, int port) {
        SequencedMap<String, Long> out = new LinkedHashMap<>();
        sys.portCounters(device, port, "counters").forEach((k, v) -> out.put("counters." + k, v));
        sys.portCounters(device, port, "hw_counters").forEach((k, v) -> out.put("hw." + k, v));
        return out;
    }

    /** The counters of one kind, in order. */
    static SequencedMap<String, Long> of(Map<String, Long> counters, Kind kind) {
        SequencedMap<String, Long> out = new LinkedHashMap<>();
        counters.forEach((k, v) -> {
            if (kind(k.substring(k.indexOf('.') + 1)) == kind) {
                out.put(k, v);
            }
        });
        return out;
    }

    /**
     * The packets sent and received, from the counters that count them ({@code hw.sent_pkts},
     * {@code hw.rcvd_pkts}, {@code counters.port_xmit_packets}, {@code counters.port_rcv_packets});
     * -1 when the port has none of them.
     */
    static long packets(Map<String, Long> counters) {
        long sum = -1;
        for (String k : new String[] {"hw.sent_pkts", "hw.rcvd_pkts", "counters.port_xmit_packets",
            "counters.port_rcv_packets"}) {
            Long v = counters.get(k);
            if (v != null) {
                sum = Math.max(sum, 0) + v;
            }
        }
        return sum;
    }

    /** {@code after - before} per counter present in both; a counter that went backwards (reset) counts from 0. */
    static SequencedMap<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        SequencedMap<String, Long> out = new LinkedHashMap<>();
        after.forEach((k, v) -> {
            Long b = before.get(k);
            if (b != null) {
                out.put(k, v >= b ? v - b : v);
            }
        });
        return out;
    }
}
