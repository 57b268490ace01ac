package io.jperf.report;

import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * perftest 6.29's {@code --out_json} keys, in perftest's order and under perftest's conditions
 * ({@code write_test_info_to_file}, {@code REPORT_FMT_JSON}, {@code REPORT_FMT_LAT_JSON}, ...).
 */
class PerftestJsonTest {
    private static final BandwidthResult BW_4K = new BandwidthResult(4096, 5000, 1873.456, 1870.123, 0.478751,
            BandwidthResult.Unit.MIB_PER_SEC);
    private static final BandwidthResult BW_64K = new BandwidthResult(65536, 5000, 2371.0449, 2301.7051, 0.0368273,
            BandwidthResult.Unit.MIB_PER_SEC);
    private static final LatencyResult LAT = new LatencyResult(2, 1000, 6.381, 28.937, 7.42, 7.7168, 0.8162, 12.02,
            20.405);

    private static Map<String, Object> parse(String json) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) JsonReader.parse(json, JsonReader.DEFAULT_MAX_DEPTH,
                Integer.MAX_VALUE);
        return m;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(String json, String name) {
        return (Map<String, Object>) parse(json).get(name);
    }

    private static TestHeader header(TestOptions o, int gidIndex) {
        return TestHeader.of(o, "rxe0", 1024, LinkType.ETHERNET, gidIndex, 0, "ON", true);
    }

    /** perftest's --cpu_util: "CPU_util" after the bandwidth figures, 2 decimals. */
    @Test
    void cpuUtilIsTheLastResultKeyWhenGiven() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("10.20.0.2").durationSeconds(4).build();
        Map<String, Object> results = section(PerftestJson.of(o, header(o, 1), List.of(BW_64K), List.of(), 12.3456),
                "results");
        assertEquals(List.of("MsgSize", "n_iterations", "BW_peak", "BW_average", "MsgRate", "CPU_util"),
                List.copyOf(results.keySet()));
        assertEquals(12.35, results.get("CPU_util"));
        assertFalse(section(PerftestJson.of(o, header(o, 1), List.of(BW_64K), List.of()), "results")
                .containsKey("CPU_util"));
    }

    @Test
    void bandwidthClientHasPerftestsKeysInItsOrderWithTheLastSize() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("10.20.0.2").allSizes(true).build();
        String json = PerftestJson.of(o, header(o, 1), List.of(BW_4K, BW_64K), List.of());
        assertEquals(List.of("test_info", "results"), List.copyOf(parse(json).keySet()));
        Map<String, Object> info = section(json, "test_info");
        assertEquals(List.of("test", "Dual_port", "Device", "Number_of_qps", "Transport_type", "Connection_type",
                "Using_SRQ", "PCIe_relax_order", "ibv_wr_API", "TX_depth", "CQ_Moderation", "Mtu", "Link_type",
                "GID_index", "Max_inline_data", "rdma_cm_QPs", "Use_ROCm_memory", "Data_ex_method"),
                List.copyOf(info.keySet()));
        assertEquals("RDMA_Write_BW_Test", info.get("test"));
        assertEquals("rxe0", info.get("Device"));
        assertEquals(1024L, info.get("Mtu"));
        assertEquals("Ethernet", info.get("Link_type"));
        assertEquals("Ethernet", info.get("Data_ex_method"));
        assertEquals("OFF", info.get("rdma_cm_QPs"));
        Map<String, Object> results = section(json, "results");
        assertEquals(List.of("MsgSize", "n_iterations", "BW_peak", "BW_average", "MsgRate"),
                List.copyOf(results.keySet()));
        // -a: like perftest, which rewrites the file after every size, the last size; perftest's decimals
        assertEquals(65536L, results.get("MsgSize"));
        assertEquals(5000L, results.get("n_iterations"));
        assertEquals(2371.04, results.get("BW_peak"));
        assertEquals(2301.71, results.get("BW_average"));
        assertEquals(0.036827, results.get("MsgRate"));
    }

    @Test
    void serverOmitsTxDepthAndConditionalKeysFollowPerftest() {
        TestOptions server = TestOptions.builder(TestKind.WRITE_BW).build();
        Map<String, Object> info = section(PerftestJson.of(server, header(server, -1), List.of(BW_4K), List.of()),
                "test_info");
        assertEquals(false, info.containsKey("TX_depth"), info.toString());
        assertEquals(false, info.containsKey("GID_index"), info.toString());

        TestOptions cm = TestOptions.builder(TestKind.WRITE_BW).serverHost("10.20.0.2").bidirectional(true)
                .postList(8).rdmaCm(true).tos(96).build();
        Map<String, Object> cmInfo = section(PerftestJson.of(cm, header(cm, 1), List.of(BW_4K), List.of()),
                "test_info");
        assertEquals("RDMA_Write_Bidirectional_Post_List_BW_Test", cmInfo.get("test"));
        assertEquals(8L, cmInfo.get("Post_List"));
        assertEquals("ON", cmInfo.get("rdma_cm_QPs"));
        assertEquals("rdma_cm", cmInfo.get("Data_ex_method"));
        assertEquals(96L, cmInfo.get("TOS"));
    }

    @Test
    void outputModesWriteTheOneNumber() {
        TestOptions bw = TestOptions.builder(TestKind.WRITE_BW).serverHost("h").outputMode(OutputMode.BANDWIDTH).build();
        assertEquals(Map.of("bw_avg", 1870.123), section(PerftestJson.of(bw, header(bw, 1), List.of(BW_4K), List.of()),
                "results"));
        TestOptions mr = bw.toBuilder().outputMode(OutputMode.MESSAGE_RATE).build();
        assertEquals(Map.of("msgRate_avg", 0.478751),
                section(PerftestJson.of(mr, header(mr, 1), List.of(BW_4K), List.of()), "results"));
        TestOptions lat = TestOptions.builder(TestKind.WRITE_LAT).serverHost("h").outputMode(OutputMode.LATENCY).build();
        assertEquals(Map.of("avg_lat", 7.7168), section(PerftestJson.of(lat, header(lat, 1), List.of(), List.of(LAT)),
                "results"));
    }

    @Test
    void latencyHasPerftestsKeysAndDurationItsDurationKeys() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_LAT).serverHost("10.20.0.2").build();
        String json = PerftestJson.of(o, header(o, 1), List.of(), List.of(LAT));
        Map<String, Object> info = section(json, "test_info");
        assertEquals("RDMA_Write_Latency_Test", info.get("test"));
        assertEquals(false, info.containsKey("CQ_Moderation"), info.toString());
        Map<String, Object> results = section(json, "results");
        assertEquals(List.of("MsgSize", "n_iterations", "t_min", "t_max", "t_typical", "t_avg", "t_stdev",
                "percentile_99", "percentile_99.9"), List.copyOf(results.keySet()));
        assertEquals(7.42, results.get("t_typical"));
        assertEquals(7.72, results.get("t_avg"));
        assertEquals(20.41, results.get("percentile_99.9"));

        TestOptions d = o.toBuilder().durationSeconds(5).build();
        Map<String, Object> dur = section(PerftestJson.of(d, header(d, 1), List.of(), List.of(LAT)), "results");
        assertEquals(List.of("MsgSize", "n_iterations", "t_avg", "tps_average"), List.copyOf(dur.keySet()));
        assertEquals(64793.7, dur.get("tps_average")); // 1e6 / (2 * 7.7168) = 64793.697
    }

    @Test
    void refusesARunWithoutAResult() {
        TestOptions o = TestOptions.builder(TestKind.WRITE_BW).serverHost("h").build();
        assertThrows(IllegalArgumentException.class, () -> PerftestJson.of(o, header(o, 1), List.of(), List.of()));
    }

    @Test
    void readTestsNameTheVerbAndTheirOutstandingReadsAndAReadLatServerHasNoResults() {
        TestOptions client = TestOptions.builder(TestKind.READ_BW).serverHost("h").build();
        TestHeader h = TestHeader.of(client, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true, 128);
        Map<String, Object> info = section(PerftestJson.of(client, h, List.of(BW_64K), List.of()), "test_info");
        assertEquals("RDMA_Read_BW_Test", info.get("test"));
        assertEquals(128L, ((Number) info.get("Outstand_reads")).longValue());
        assertEquals(null, info.get("Max_inline_data"), "perftest prints outstanding reads instead");
        TestOptions server = TestOptions.builder(TestKind.READ_LAT).build();
        TestHeader sh = TestHeader.of(server, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true, 16);
        String json = PerftestJson.of(server, sh, List.of(), List.of());
        assertEquals("RDMA_Read_Latency_Test", section(json, "test_info").get("test"));
        assertEquals(Map.of(), section(json, "results"));
    }

    @Test
    void atomicTestsNameTheirOperationAndTheirOutstandingReads() {
        TestOptions client = TestOptions.builder(TestKind.ATOMIC_BW).serverHost("h").build();
        TestHeader h = TestHeader.of(client, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true, 16);
        BandwidthResult bw8 = new BandwidthResult(8, 1000, 3.5, 3.25, 0.425984, BandwidthResult.Unit.MIB_PER_SEC);
        Map<String, Object> info = section(PerftestJson.of(client, h, List.of(bw8), List.of()), "test_info");
        assertEquals("Atomic_FETCH_AND_ADD_BW_Test", info.get("test"), "perftest's testsStr, then atomicTypesStr");
        assertEquals(16L, ((Number) info.get("Outstand_reads")).longValue());
        TestOptions lat = TestOptions.builder(TestKind.ATOMIC_LAT).serverHost("h")
                .atomicType(io.jperf.options.AtomicType.CMP_AND_SWAP).build();
        TestHeader lh = TestHeader.of(lat, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true, 16);
        LatencyResult lat8 = new LatencyResult(8, 1000, 6.381, 28.937, 7.42, 7.7168, 0.8162, 12.02, 20.405);
        assertEquals("Atomic_CMP_AND_SWAP_Latency_Test",
                section(PerftestJson.of(lat, lh, List.of(), List.of(lat8)), "test_info").get("test"));
    }

    @Test
    void sendTestsAreNamedSendAndTheReceivingEndShowsItsRxDepth() {
        TestOptions server = TestOptions.builder(TestKind.SEND_BW).build();
        TestHeader sh = TestHeader.of(server, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true);
        Map<String, Object> info = section(PerftestJson.of(server, sh, List.of(BW_64K), List.of()), "test_info");
        assertEquals("Send_BW_Test", info.get("test"));
        assertEquals(512L, ((Number) info.get("RX_depth")).longValue());
        assertEquals(0L, ((Number) info.get("Max_inline_data")).longValue());
        TestOptions client = TestOptions.builder(TestKind.SEND_BW).serverHost("h").build();
        TestHeader ch = TestHeader.of(client, "rxe0", 1024, LinkType.ETHERNET, 1, 0, "ON", true);
        assertEquals(null, section(PerftestJson.of(client, ch, List.of(BW_64K), List.of()), "test_info")
                .get("RX_depth"), "perftest prints the RX depth on the receiving end only");
        TestOptions lat = TestOptions.builder(TestKind.SEND_LAT).serverHost("h").build();
        assertEquals("Send_Latency_Test", PerftestJson.testName(TestHeader.of(lat, "rxe0", 1024, LinkType.ETHERNET,
                1, 0, "ON", true)));
    }
}
