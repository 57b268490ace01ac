package io.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.Connection;
import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.result.BandwidthResult.Unit;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import org.junit.jupiter.api.Test;

/**
 * Expected lines were produced by a C program passing the same values to perftest 6.06's format strings
 * (BASIC_ADDR_FMT, RDMA_FMT, PERF_GID_FMT, REPORT_FMT, REPORT_FMT_EXT, REPORT_FMT_LAT) through glibc.
 */
class PerftestTextReportTest {
    private static final String DASHES = "-".repeat(87) + "\n";
    private final PerftestTextReport report = new PerftestTextReport(PerftestTextReport.Flavor.PERFTEST_6_06);

    @Test
    void localAddressWithGidAndCZeroCornerCases() {
        byte[] gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 255, (byte) 255, (byte) 192, (byte) 168, 1, 7};
        EndpointInfo e = new EndpointInfo(0, 0x11, 0xabcdef, 0x1234, 0x5566778899aaL, gid, 3);
        assertEquals(" local address: LID 0000 QPN 0x0011 PSN 0xabcdef RKey 0x001234 VAddr 0x005566778899aa\n"
                + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:07\n", report.addressLines(e, true));
    }

    @Test
    void remoteAddressWithoutGid() {
        EndpointInfo e = new EndpointInfo(0x1a, 0x1234, 0, 0xdeadbeef, 0, null, -1);
        assertEquals(" remote address: LID 0x1a QPN 0x1234 PSN 000000 RKey 0xdeadbeef VAddr 0000000000000000\n",
                report.addressLines(e, false));
    }

    @Test
    void remoteAddressWithTheGidItsKeyMessageCarried() {
        // as perftest prints the peer: its key message has the GID, not the index (-1 here)
        byte[] gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 255, (byte) 255, 10, 20, 0, 1};
        EndpointInfo e = new EndpointInfo(0, 0x44, 0x27f666, 0x35eb, 0x558e5db62000L, gid, -1);
        assertEquals(" remote address: LID 0000 QPN 0x0044 PSN 0x27f666 RKey 0x0035eb VAddr 0x00558e5db62000\n"
                + " GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:20:00:01\n", report.addressLines(e, false));
    }

    @Test
    void bandwidthHeaderAndRowIn606Layout() {
        assertEquals(DASHES + " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n",
                report.bandwidthTableHeader(Unit.MIB_PER_SEC, OutputMode.NONE));
        BandwidthResult r = new BandwidthResult(65536, 5000, 11722.545, 11721.125, 0.187538, Unit.MIB_PER_SEC);
        assertEquals(" 65536      5000             11722.55            11721.12\t\t   0.187538\n",
                report.bandwidthRow(r, OutputMode.NONE));
    }

    @Test
    void mibFlavorUsesUpstreamLabelAndSpacing() {
        PerftestTextReport mib = new PerftestTextReport();
        assertEquals(DASHES + " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n",
                mib.bandwidthTableHeader(Unit.MIB_PER_SEC, OutputMode.NONE));
        BandwidthResult r = new BandwidthResult(65536, 5000, 11722.545, 11721.125, 0.187538, Unit.MIB_PER_SEC);
        assertEquals(" 65536      5000             11722.55            11721.12\t\t     0.187538\n",
                mib.bandwidthRow(r, OutputMode.NONE));
        assertEquals(DASHES + " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n",
                mib.bandwidthTableHeader(Unit.GBIT_PER_SEC, OutputMode.NONE));
    }

    @Test
    void smallGbitAveragesUseSixDecimals() {
        BandwidthResult r = new BandwidthResult(2, 5000, 0, 0.05, 3.125, Unit.GBIT_PER_SEC);
        assertEquals(" 2          5000           0.000000            0.050000            3.125000\n",
                report.bandwidthRow(r, OutputMode.NONE));
    }

    @Test
    void latencyHeaderAndRow() {
        assertEquals(DASHES + " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n",
                report.latencyTableHeader(OutputMode.NONE));
        LatencyResult r = new LatencyResult(2, 1000, 1.125, 12.5, 1.135, 1.2, 0.375, 2.0, 10.005);
        assertEquals(" 2       1000          1.12           12.50        1.14     \t       1.20        \t0.38   \t\t"
                + "2.00    \t\t10.01  \n", report.latencyRow(r, OutputMode.NONE));
    }

    /** perftest's -U/-H list: {@code printf("#, %s\n", "usec")} then {@code printf("%d, %g\n", i + 1, value)}. */
    @Test
    void latencySampleListIsPerftestsHashTitleThenNumberedGeneralFormatValues() {
        assertEquals("#, usec\n1, 1.5\n2, 12.3457\n3, 100\n", report.latencySamples(new double[] {1.5, 12.3456789, 100}));
        assertEquals("#, usec\n", report.latencySamples(new double[0]));
    }

    /** write_bw.c's --report-both block after the bidirectional row, the row widths of its RESULT_FMT. */
    @Test
    void reportBothPrintsLocalThenRemoteUnderTheirOwnTitles() {
        PerftestTextReport mib = new PerftestTextReport();
        BandwidthResult local = new BandwidthResult(65536, 5000, 100.5, 90.25, 0.001444, Unit.MIB_PER_SEC);
        BandwidthResult remote = new BandwidthResult(65536, 5000, 80.5, 70.25, 0.001124, Unit.MIB_PER_SEC);
        String titles = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n";
        assertEquals(DASHES + "\n Local results: \n" + DASHES + titles + mib.bandwidthRow(local, OutputMode.NONE)
                + DASHES + "\n Remote results: \n" + DASHES + titles + mib.bandwidthRow(remote, OutputMode.NONE),
                mib.bothSides(local, remote, OutputMode.NONE));
        assertTrue(mib.bothSides(local, remote, OutputMode.BANDWIDTH).contains(titles + "90.250000\n" + DASHES),
                "perftest prints the titles in --output modes too, and the one number as the row");
    }

    @Test
    void outputModesPrintOnlyTheNumber() {
        BandwidthResult bw = new BandwidthResult(65536, 5000, 1, 11721.125, 0.187538, Unit.MIB_PER_SEC);
        assertEquals("11721.125000\n", report.bandwidthRow(bw, OutputMode.BANDWIDTH));
        assertEquals("0.187538\n", report.bandwidthRow(bw, OutputMode.MESSAGE_RATE));
        assertEquals("", report.bandwidthTableHeader(Unit.MIB_PER_SEC, OutputMode.BANDWIDTH));
        LatencyResult lat = new LatencyResult(2, 1000, 1, 2, 1.5, 1.25, 0.1, 2, 2);
        assertEquals("1.250000\n", report.latencyRow(lat, OutputMode.LATENCY));
        assertEquals("", report.tableFooter(OutputMode.LATENCY));
    }

    @Test
    void clientBandwidthHeaderBlock() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.1").build();
        TestHeader h = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true);
        assertEquals(DASHES
                + "                    RDMA_Write BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: ON\n"
                + " ibv_wr* API     : ON\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 1\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + DASHES, report.header(h));
    }

    @Test
    void latencyServerHeaderOmitsTxDepthCqModerationAndGid() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).build();
        TestHeader h = TestHeader.of(o, "mlx5_0", 4096, LinkType.IB, -1, 220, "OFF", false);
        assertEquals(DASHES
                + "                    RDMA_Write Latency Test\n"
                + " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: OFF\n"
                + " ibv_wr* API     : OFF\n"
                + " Mtu             : 4096[B]\n"
                + " Link type       : IB\n"
                + " Max inline data : 220[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + DASHES, report.header(h));
    }

    @Test
    void readClientHeaderNamesTheVerbAndPrintsOutstandingReadsInsteadOfInline() {
        TestOptions o = TestOptions.builder(TestKind.READ_BW).serverHost("10.0.0.1").build();
        TestHeader h = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "OFF", false, 128);
        assertEquals(DASHES
                + "                    RDMA_Read BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: OFF\n"
                + " ibv_wr* API     : OFF\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 1\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Outstand reads  : 128\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + DASHES, report.header(h));
        TestHeader lat = TestHeader.of(TestOptions.builder(TestKind.READ_LAT).build(), "rxe0", 1024,
                LinkType.ETHERNET, 1, 0, "OFF", false, 16);
        assertTrue(report.header(lat).contains("RDMA_Read Latency Test\n"), report.header(lat));
    }

    @Test
    void atomicHeadersNameTheOperationAsPerftestsTitleDoesAndPrintOutstandingReads() {
        TestOptions o = TestOptions.builder(TestKind.ATOMIC_BW).serverHost("10.0.0.1").build();
        TestHeader h = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "OFF", false, 16);
        assertEquals(DASHES
                + "                    Atomic FETCH_AND_ADD BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: OFF\n"
                + " ibv_wr* API     : OFF\n"
                + " TX depth        : 128\n"
                + " CQ Moderation   : 100\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Outstand reads  : 16\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + DASHES, report.header(h));
        TestOptions cas = TestOptions.builder(TestKind.ATOMIC_LAT)
                .atomicType(io.jperf.options.AtomicType.CMP_AND_SWAP).build();
        TestHeader lat = TestHeader.of(cas, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "OFF", false, 16);
        assertTrue(report.header(lat).contains("  Atomic CMP_AND_SWAP Latency Test\n"), report.header(lat));
        TestOptions bidi = TestOptions.builder(TestKind.ATOMIC_BW).serverHost("h").bidirectional(true).build();
        assertEquals("Atomic FETCH_AND_ADD Bidirectional BW Test",
                TestHeader.of(bidi, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "OFF", false, 16).title());
    }

    @Test
    void sendServerHeaderIsPerftestsWithItsRxDepth() {
        TestOptions o = TestOptions.builder(TestKind.SEND_BW).iterations(200).build();
        TestHeader h = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "OFF", false);
        assertEquals(DASHES
                + "                    Send BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: OFF\n"
                + " ibv_wr* API     : OFF\n"
                + " RX depth        : 200\n"
                + " CQ Moderation   : 1\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : OFF\n"
                + " Data ex. method : Ethernet\n"
                + DASHES, report.header(h));
        TestHeader client = TestHeader.of(TestOptions.builder(TestKind.SEND_LAT).serverHost("h").build(), "rxe0", 1024,
                LinkType.ETHERNET, 1, 236, "OFF", false);
        String text = report.header(client);
        assertTrue(text.contains("                    Send Latency Test\n") && text.contains(" TX depth        : 1\n")
                && !text.contains("RX depth"), text);
    }

    @Test
    void rdmaCmServerBidirectionalPostListHeader() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).bidirectional(true).postList(4).rdmaCm(true)
                .tos(96).connection(Connection.RC).build();
        TestHeader h = TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "Unsupported", false);
        assertEquals(DASHES
                + "                    RDMA_Write Bidirectional Post List BW Test\n"
                + " Dual-port       : OFF\t\tDevice         : rxe0\n"
                + " Number of qps   : 1\t\tTransport type : IB\n"
                + " Connection type : RC\t\tUsing SRQ      : OFF\n"
                + " PCIe relax order: Unsupported\n"
                + " ibv_wr* API     : OFF\n"
                + " TX depth        : 128\n"
                + " Post List       : 4\n"
                + " CQ Moderation   : 4\n"
                + " Mtu             : 1024[B]\n"
                + " Link type       : Ethernet\n"
                + " GID index       : 1\n"
                + " Max inline data : 0[B]\n"
                + " rdma_cm QPs\t : ON\n"
                + " Data ex. method : rdma_cm \tTOS    : 96\n"
                + DASHES
                + " Waiting for client rdma_cm QP to connect\n"
                + " Please run the same command with the IB/RoCE interface IP\n"
                + DASHES, report.header(h));
    }
}
