package io.jperf.doctor;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static io.jperf.doctor.PortCounters.Kind.CONGESTION;
import static io.jperf.doctor.PortCounters.Kind.ERROR;
import static io.jperf.doctor.PortCounters.Kind.TRAFFIC;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** How counter names of rxe, mlx5 and the IB port counters are sorted. */
class PortCountersTest {

    @Test
    void rxeHwCounters() {
        for (String e : new String[] {"duplicate_request", "out_of_seq_request", "rcvd_rnr_err", "send_rnr_err",
            "rcvd_seq_err", "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err", "send_err", "link_downed"}) {
            assertEquals(ERROR, PortCounters.kind(e), e);
        }
        for (String t : new String[] {"sent_pkts", "rcvd_pkts", "ack_deferred", "rdma_sends", "rdma_recvs", "lifespan"}) {
            assertEquals(TRAFFIC, PortCounters.kind(t), t);
        }
    }

    @Test
    void mlx5AndIbCounters() {
        for (String e : new String[] {"out_of_sequence", "packet_seq_err", "local_ack_timeout_err", "rnr_nak_retry_err",
            "implied_nak_seq_err", "roce_adp_retrans", "roce_slow_restart", "req_cqe_error", "port_rcv_errors",
            "port_xmit_discards", "symbol_error", "VL15_dropped", "excessive_buffer_overrun_errors"}) {
            assertEquals(ERROR, PortCounters.kind(e), e);
        }
        for (String c : new String[] {"np_cnp_sent", "rp_cnp_handled", "np_ecn_marked_roce_packets", "rp_cnp_ignored"}) {
            assertEquals(CONGESTION, PortCounters.kind(c), c);
        }
        for (String t : new String[] {"port_xmit_data", "port_rcv_packets", "port_xmit_wait", "rx_write_requests"}) {
            assertEquals(TRAFFIC, PortCounters.kind(t), t);
        }
    }

    @Test
    void deltaCountsFromTheFirstReadAndFromZeroAfterAReset() {
        Map<String, Long> before = new LinkedHashMap<>(Map.of("hw.a", 5L, "hw.b", 9L));
        Map<String, Long> after = new LinkedHashMap<>(Map.of("hw.a", 8L, "hw.b", 2L, "hw.c", 1L));
        Map<String, Long> d = PortCounters.delta(before, after);
        assertEquals(3L, d.get("hw.a"));
        assertEquals(2L, d.get("hw.b"), "went backwards: reset, count from 0");
        assertEquals(null, d.get("hw.c"), "not in both reads");
    }
}
