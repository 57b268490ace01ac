package io.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Expected strings were printed by glibc's printf (gcc, x86-64) with the same conversions. */
class CFormatTest {

    @Test
    void alternateHexLikeC() {
        assertEquals("0000", CFormat.alternateHex(0, 4), "%#04x of 0 has no 0x prefix");
        assertEquals("0x01", CFormat.alternateHex(1, 4));
        assertEquals("0x0a", CFormat.alternateHex(0xa, 4));
        assertEquals("0x1234", CFormat.alternateHex(0x1234, 4));
        assertEquals("0x12345", CFormat.alternateHex(0x12345, 6));
        assertEquals("000000", CFormat.alternateHex(0, 6));
        assertEquals("0x0000ff", CFormat.alternateHex(0xff, 8));
        assertEquals("0xdeadbeef", CFormat.alternateHex(0xdeadbeef, 8));
        assertEquals("0x007f1234567890", CFormat.alternateHex(0x7f1234567890L, 16));
        assertEquals("0xffffffffffffffff", CFormat.alternateHex(-1L, 16));
        assertEquals("0000000000000000", CFormat.alternateHex(0L, 16));
    }

    @Test
    void generalLikeCsPercentG() {
        assertEquals("1.5", CFormat.general(1.5));
        assertEquals("100", CFormat.general(100));
        assertEquals("1e+06", CFormat.general(999999.5), "rounds up into the exponent form");
        assertEquals("0.000123457", CFormat.general(0.0001234567), "exponent -4 is still %f style");
        assertEquals("1.23457e+06", CFormat.general(1234567));
        assertEquals("1e-05", CFormat.general(0.00001));
        assertEquals("12.3457", CFormat.general(12.3456789));
        assertEquals("2", CFormat.general(2.0000001), "trailing zeros and the point go");
        assertEquals("1.23456e+06", CFormat.general(1234565), "exact tie -> even");
        assertEquals("0.125", CFormat.general(0.125));
        assertEquals("3.05176e-05", CFormat.general(3.0517578125e-05));
        assertEquals("-2.25", CFormat.general(-2.25));
        assertEquals("0", CFormat.general(0));
        assertEquals("27.5625", CFormat.general(27.5625));
    }

    @Test
    void fixedRoundsTheExactBinaryValueHalfEven() {
        assertEquals("0.12", CFormat.fixed(0.125, 2), "exact tie -> even");
        assertEquals("0.38", CFormat.fixed(0.375, 2));
        assertEquals("2.67", CFormat.fixed(2.675, 2), "2.675 is stored as 2.67499999...");
        assertEquals("1.00", CFormat.fixed(1.005, 2));
        assertEquals("10.01", CFormat.fixed(10.005, 2), "10.005 is stored as 10.00500000000000078...");
        assertEquals("0.333333", CFormat.fixed(1.0 / 3, 6));
        assertEquals("100000000000000000000.000000", CFormat.fixed(1e20, 6));
        assertEquals("-0.00", CFormat.fixed(-0.0, 2));
        assertEquals("inf", CFormat.fixed(Double.POSITIVE_INFINITY, 2));
        assertEquals("-inf", CFormat.fixed(Double.NEGATIVE_INFINITY, 6));
    }

    @Test
    void leftPadsButNeverTruncates() {
        assertEquals("2      ", CFormat.left("2", 7));
        assertEquals("8388608", CFormat.left("8388608", 7));
        assertEquals("12345678", CFormat.left("12345678", 7));
        assertEquals("07", CFormat.twoDigits(7));
        assertEquals("254", CFormat.twoDigits(254));
    }
}
