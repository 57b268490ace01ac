package io.jperf.cm;

import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.rdma_cm_event;
import io.jperf.ffi.generated.rdma_conn_param;
import io.jperf.ffi.generated.rdma_h;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code struct rdma_cm_event} built by hand in native memory, decoded like librdmacm's. */
class CmEventDecodingTest {

    @Test
    void eventNumbersMatchTheInstalledHeader() {
        assertEquals(rdma_h.RDMA_CM_EVENT_ADDR_RESOLVED(), CmEventType.ADDR_RESOLVED.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_ADDR_ERROR(), CmEventType.ADDR_ERROR.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_ROUTE_RESOLVED(), CmEventType.ROUTE_RESOLVED.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_ROUTE_ERROR(), CmEventType.ROUTE_ERROR.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_CONNECT_REQUEST(), CmEventType.CONNECT_REQUEST.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_CONNECT_RESPONSE(), CmEventType.CONNECT_RESPONSE.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_CONNECT_ERROR(), CmEventType.CONNECT_ERROR.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_UNREACHABLE(), CmEventType.UNREACHABLE.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_REJECTED(), CmEventType.REJECTED.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_ESTABLISHED(), CmEventType.ESTABLISHED.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_DISCONNECTED(), CmEventType.DISCONNECTED.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_DEVICE_REMOVAL(), CmEventType.DEVICE_REMOVAL.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_MULTICAST_JOIN(), CmEventType.MULTICAST_JOIN.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_MULTICAST_ERROR(), CmEventType.MULTICAST_ERROR.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_ADDR_CHANGE(), CmEventType.ADDR_CHANGE.nativeValue());
        assertEquals(rdma_h.RDMA_CM_EVENT_TIMEWAIT_EXIT(), CmEventType.TIMEWAIT_EXIT.nativeValue());
        for (CmEventType t : CmEventType.values()) {
            if (t != CmEventType.OTHER) {
                assertEquals(t, CmEventType.fromNative(t.nativeValue()));
                assertEquals("RDMA_CM_EVENT_" + t.name(),
                        NativeMemory.cString(rdma_h.rdma_event_str(t.nativeValue()), 64),
                        "librdmacm's own name for " + t.nativeValue());
            }
        }
    }

    @Test
    void connectRequestWithPrivateDataAndPeerDepths() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ev = rdma_cm_event.allocate(arena);
            ev.fill((byte) 0);
            MemorySegment listener = arena.allocate(64);
            MemorySegment child = arena.allocate(64);
            rdma_cm_event.id(ev, child);
            rdma_cm_event.listen_id(ev, listener);
            rdma_cm_event.event(ev, rdma_h.RDMA_CM_EVENT_CONNECT_REQUEST());
            rdma_cm_event.status(ev, 0);
            MemorySegment conn = rdma_cm_event.param.conn(rdma_cm_event.param(ev));
            byte[] data = new byte[56];
            data[0] = 'j';
            data[1] = 'p';
            rdma_conn_param.private_data(conn, arena.allocateFrom(ValueLayout.JAVA_BYTE, data));
            rdma_conn_param.private_data_len(conn, (byte) 56);
            rdma_conn_param.responder_resources(conn, (byte) 4);
            rdma_conn_param.initiator_depth(conn, (byte) 200);

            CmEvent e = CmEventChannel.copy(ev);
            assertEquals(CmEventType.CONNECT_REQUEST, e.type());
            assertEquals(child.address(), e.id());
            assertEquals(listener.address(), e.listenId());
            assertEquals(listener.address(), e.routingKey());
            assertArrayEquals(data, e.privateData());
            assertEquals(4, e.responderResources());
            assertEquals(200, e.initiatorDepth(), "u8 read unsigned");
        }
    }

    @Test
    void addrErrorWithNegativeStatusAndNoPrivateData() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ev = rdma_cm_event.allocate(arena);
            ev.fill((byte) 0);
            MemorySegment id = arena.allocate(64);
            rdma_cm_event.id(ev, id);
            rdma_cm_event.event(ev, rdma_h.RDMA_CM_EVENT_ADDR_ERROR());
            rdma_cm_event.status(ev, -110);
            CmEvent e = CmEventChannel.copy(ev);
            assertEquals(CmEventType.ADDR_ERROR, e.type());
            assertEquals(-110, e.status());
            assertEquals(0, e.listenId());
            assertEquals(id.address(), e.routingKey());
            assertEquals(0, e.privateData().length);
            assertEquals(0, e.responderResources(), "only read for connect requests");
            assertEquals("RDMA_CM_EVENT_ADDR_ERROR (status -110 ETIMEDOUT)", e.describe());
        }
    }

    @Test
    void rejectedKeepsTheWholePaddedPrivateData() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ev = rdma_cm_event.allocate(arena);
            ev.fill((byte) 0);
            rdma_cm_event.id(ev, arena.allocate(8));
            rdma_cm_event.event(ev, rdma_h.RDMA_CM_EVENT_REJECTED());
            rdma_cm_event.status(ev, 28);
            byte[] data = new byte[148];
            Arrays.fill(data, 0, 3, (byte) 7);
            MemorySegment conn = rdma_cm_event.param.conn(rdma_cm_event.param(ev));
            rdma_conn_param.private_data(conn, arena.allocateFrom(ValueLayout.JAVA_BYTE, data));
            rdma_conn_param.private_data_len(conn, (byte) 148);
            CmEvent e = CmEventChannel.copy(ev);
            assertEquals(148, e.privateData().length);
            assertEquals("070707", CmException.privateDataText(e.privateData()));
        }
    }
}
