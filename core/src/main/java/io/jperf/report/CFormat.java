package io.jperf.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The few C {@code printf} conversions perftest's output uses, reproduced exactly (checked against glibc):
 * {@code %#0Nx} prints 0 without the {@code 0x} prefix, and {@code %.Nf} rounds the exact binary value
 * with ties to even ({@code 0.125 -> "0.12"}, {@code 1.005 -> "1.00"}), unlike {@link String#format}.
 */
final class CFormat {
    private CFormat() {
    }

    /** C's {@code %#0<width>x} / {@code %#0<width>llx} of an unsigned value. */
    static String alternateHex(long value, int width) {
        String digits = value == 0 ? "" : Long.toHexString(value);
        String prefix = value == 0 ? "" : "0x";
        int pad = Math.max(0, width - prefix.length() - Math.max(1, digits.length()));
        return prefix + "0".repeat(pad) + (value == 0 ? "0" : digits);
    }

    /** {@link #alternateHex(long, int)} of an unsigned 32-bit value. */
    static String alternateHex(int value, int width) {
        return alternateHex(Integer.toUnsignedLong(value), width);
    }

    /** C's {@code %.<decimals>f}, including {@code -0.00}, {@code inf} and {@code nan}. */
    static String fixed(double value, int decimals) {
        if (Double.isNaN(value)) {
            return Double.doubleToRawLongBits(value) < 0 ? "-nan" : "nan";
        }
        String sign = Double.doubleToRawLongBits(value) < 0 ? "-" : "";
        if (Double.isInfinite(value)) {
            return sign + "inf";
        }
        return sign + new BigDecimal(Math.abs(value)).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** C's {@code %-<width>s}: left-justified, padded with spaces, never truncated. */
    static String left(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    /** C's {@code %02d} of a non-negative value. */
    static String twoDigits(int value) {
        return value < 10 ? "0" + value : Integer.toString(value);
    }
}
