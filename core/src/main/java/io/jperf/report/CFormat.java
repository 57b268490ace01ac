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

    /**
     * C's {@code %g} (precision 6): 6 significant digits, in {@code %e} style when the exponent is below -4
     * or at least 6, else {@code %f} style; trailing zeros and a trailing point removed.
     */
    static String general(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return fixed(value, 0);
        }
        String sign = Double.doubleToRawLongBits(value) < 0 ? "-" : "";
        if (value == 0) {
            return sign + "0";
        }
        BigDecimal rounded = new BigDecimal(Math.abs(value)).round(new java.math.MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            String digits = stripZeros(rounded.unscaledValue().toString());
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + twoDigits(Math.abs(exponent));
        }
        String plain = rounded.setScale(Math.max(0, 5 - exponent), RoundingMode.UNNECESSARY).toPlainString();
        if (plain.contains(".")) {
            plain = stripZeros(plain);
            if (plain.endsWith(".")) {
                plain = plain.substring(0, plain.length() - 1);
            }
        }
        return sign + plain;
    }

    private static String stripZeros(String s) {
        int end = s.length();
        while (end > 1 && s.charAt(end - 1) == '0') {
            end--;
        }
        return s.substring(0, end);
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
