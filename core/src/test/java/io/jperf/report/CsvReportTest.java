package io.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jperf.result.BandwidthResult;
import io.jperf.result.BandwidthResult.Unit;
import io.jperf.result.LatencyResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvReportTest {

    @Test
    void bandwidthHasAHeaderNamingTheUnit() {
        String csv = CsvReport.bandwidth(List.of(
                new BandwidthResult(2, 5000, 0, 1.5, 0.786432, Unit.GBIT_PER_SEC),
                new BandwidthResult(4, 5000, 0.1, 3e-7, 12, Unit.GBIT_PER_SEC)));
        assertEquals("size_bytes,iterations,bw_peak_gbit_per_sec,bw_average_gbit_per_sec,msg_rate_mpps\n"
                + "2,5000,0.0,1.5,0.786432\n"
                + "4,5000,0.1,0.00000030,12.0\n", csv);
    }

    @Test
    void mixedUnitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> CsvReport.bandwidth(List.of(
                new BandwidthResult(2, 1, 1, 1, 1, Unit.GBIT_PER_SEC),
                new BandwidthResult(2, 1, 1, 1, 1, Unit.MIB_PER_SEC))));
    }

    @Test
    void latencyRowsWithEmptyFieldForNan() {
        String csv = CsvReport.latency(List.of(new LatencyResult(2, 1000, 1.1, 2.2, 1.5, 1.6, Double.NaN, 2, 2.2)));
        assertEquals("size_bytes,iterations,t_min_us,t_max_us,t_typical_us,t_avg_us,t_stdev_us,p99_us,p99_9_us\n"
                + "2,1000,1.1,2.2,1.5,1.6,,2.0,2.2\n", csv);
    }
}
