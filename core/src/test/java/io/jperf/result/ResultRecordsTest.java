package io.jperf.result;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.KeyMessage;
import org.junit.jupiter.api.Test;

class ResultRecordsTest {

    @Test
    void bidirectionalFiguresAddUp() {
        BandwidthResult mine = new BandwidthResult(65536, 5000, 10, 9, 0.5, BandwidthResult.Unit.MIB_PER_SEC);
        BandwidthResult peer = new BandwidthResult(65536, 5000, 11, 8, 0.25, BandwidthResult.Unit.MIB_PER_SEC);
        assertEquals(new BandwidthResult(65536, 5000, 21, 17, 0.75, BandwidthResult.Unit.MIB_PER_SEC), mine.plus(peer));
        assertThrows(IllegalArgumentException.class,
                () -> mine.plus(new BandwidthResult(1, 1, 1, 1, 1, BandwidthResult.Unit.GBIT_PER_SEC)));
    }

    @Test
    void unitsConvertBytesPerSecond() {
        assertEquals(1.0, BandwidthResult.Unit.MIB_PER_SEC.fromBytesPerSecond(1 << 20));
        assertEquals(8.0, BandwidthResult.Unit.GBIT_PER_SEC.fromBytesPerSecond(1e9));
    }

    @Test
    void endpointCopiesItsGidAndComparesByContent() {
        byte[] gid = new byte[16];
        gid[15] = 1;
        EndpointInfo a = new EndpointInfo(1, 2, 3, 4, 5, gid, 0);
        gid[15] = 2;
        assertEquals(1, a.gid()[15]);
        assertEquals(new EndpointInfo(1, 2, 3, 4, 5, a.gid(), 0), a);
        assertNotEquals(new EndpointInfo(1, 2, 3, 4, 5, gid, 0), a);
        assertEquals("0000:0000:0000:0000:0000:0000:0000:0001", a.gidText());
        assertNull(new EndpointInfo(1, 2, 3, 4, 5, null, -1).gidText());
    }

    @Test
    void keyMessageBecomesEndpoint() {
        byte[] gid = new byte[16];
        EndpointInfo e = new KeyMessage(7, 0, 0x10, 0x20, 0x30, 0x40, 0, gid).toEndpointInfo(2);
        assertEquals(new EndpointInfo(7, 0x10, 0x20, 0x30, 0x40, gid, 2), e);
        assertArrayEquals(gid, e.gid());
    }

    @Test
    void headerTitlesAndExchangeMethod() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).bidirectional(true).build();
        TestHeader h = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "OFF", true);
        assertEquals("RDMA_Write Bidirectional BW Test", h.title());
        assertEquals("Ethernet", h.dataExchangeMethod());
        TestOptions cm = TestOptions.builder(TestKind.WRITE_LAT).rdmaCm(true).build();
        TestHeader l = TestHeader.of(cm, "rxe0", 1024, LinkType.ETHERNET, 1, 220, "OFF", true);
        assertEquals("RDMA_Write Latency Test", l.title());
        assertEquals("rdma_cm", l.dataExchangeMethod());
    }
}
