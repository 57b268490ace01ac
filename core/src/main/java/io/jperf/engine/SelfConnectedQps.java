package io.jperf.engine;

import io.jperf.options.TestParameters;
import io.jperf.verbs.Access;
import io.jperf.verbs.AddressVector;
import io.jperf.verbs.CompletionQueue;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.QpType;
import io.jperf.verbs.QueuePair;
import io.jperf.verbs.RtrAttributes;
import io.jperf.verbs.RtsAttributes;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * RC queue pairs connected to themselves on an endpoint's port, one per test QP, with a CQ of their own: where a
 * SEND bandwidth test's sender warms up its loop. perftest's receiver counts every message it gets, so a
 * sender cannot warm up on the peer as WRITE, READ and atomic tests do; on these QPs the same loop runs RDMA
 * WRITEs from the endpoint's send slices into its own receive slices (its regions allow remote writes), the
 * same Java code the measurement then runs, and no packet leaves the port.
 *
 * <p>Lifecycle: {@link #open} creates and connects them on the endpoint's PD and context; {@link #close} closes
 * the QPs, then the CQ (idempotent), before the measurement starts. Threading: confined to the test thread.
 */
final class SelfConnectedQps implements AutoCloseable {
    private final CompletionQueue cq;
    private final List<QueuePair> qps;

    private SelfConnectedQps(CompletionQueue cq, List<QueuePair> qps) {
        this.cq = cq;
        this.qps = qps;
    }

    /** One QP per test QP, each in RTS against itself, sized as the test's QPs. */
    static SelfConnectedQps open(Endpoint endpoint, TestParameters p, int ibPort) {
        int numQps = p.numQps();
        CompletionQueue cq = endpoint.context().createCompletionQueue(Math.max(16, p.txDepth() * numQps), null);
        List<QueuePair> qps = new ArrayList<>(numQps);
        SelfConnectedQps self = new SelfConnectedQps(cq, qps);
        try {
            AddressVector av = new AddressVector(endpoint.port().lid(), p.serviceLevel(), ibPort,
                    endpoint.gid().map(GidEntry::gid), endpoint.gid().map(GidEntry::index).orElse(0), 0xff,
                    p.trafficClass(), 0);
            for (int q = 0; q < numQps; q++) {
                QueuePair qp = endpoint.protectionDomain().createQueuePair(QpType.RC, cq, cq, endpoint.capabilities());
                qps.add(qp);
                qp.modifyToInit(ibPort, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
                int psn = q + 1;
                qp.modifyToRtr(new RtrAttributes(endpoint.localMtu(), qp.qpn(), psn, 1, 12, av));
                qp.modifyToRts(new RtsAttributes(psn, p.qpTimeout(), 7, 7, 1));
            }
            return self;
        } catch (RuntimeException e) {
            self.close();
            throw e;
        }
    }

    CompletionQueue cq() {
        return cq;
    }

    List<QueuePair> qps() {
        return List.copyOf(qps);
    }

    @Override
    public void close() {
        qps.forEach(QueuePair::close);
        cq.close();
    }
}
