package io.jperf.options;

/**
 * Parses message sizes as perftest's {@code -s} does: a decimal number with an optional K, M or G suffix,
 * each a factor of 1024. Stateless and thread-safe.
 */
public final class SizeParser {
    private SizeParser() {
    }

    /**
     * Parses {@code "64K"}, {@code "1M"}, {@code "4096"}.
     *
     * @return the size in bytes (at least 1)
     * @throws OptionsException when the text is not a positive number with an optional K/M/G suffix, or
     *     the result does not fit in a long
     */
    public static long parse(String text) {
        if (text == null || text.isBlank()) {
            throw invalid(text);
        }
        String t = text.trim();
        long factor = 1;
        char last = Character.toUpperCase(t.charAt(t.length() - 1));
        switch (last) {
            case 'K' -> factor = 1L << 10;
            case 'M' -> factor = 1L << 20;
            case 'G' -> factor = 1L << 30;
            default -> {
            }
        }
        String digits = factor == 1 ? t : t.substring(0, t.length() - 1);
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalid(text);
        }
        long value;
        try {
            value = Math.multiplyExact(Long.parseLong(digits), factor);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new OptionsException("-s/--size: '" + text + "' is too large");
        }
        if (value < 1) {
            throw new OptionsException("-s/--size: must be at least 1 byte (got '" + text + "')");
        }
        return value;
    }

    /** Formats a size the way users write it: {@code 65536 -> "64K"}, {@code 1000 -> "1000"}. */
    public static String format(long bytes) {
        String[] suffixes = {"G", "M", "K"};
        int[] shifts = {30, 20, 10};
        for (int i = 0; i < suffixes.length; i++) {
            long unit = 1L << shifts[i];
            if (bytes >= unit && bytes % unit == 0) {
                return (bytes / unit) + suffixes[i];
            }
        }
        return Long.toString(bytes);
    }

    private static OptionsException invalid(String text) {
        return new OptionsException("-s/--size: '" + text + "' is not a size; use a number of bytes"
                + " with an optional K, M or G suffix (x1024), e.g. 65536 or 64K");
    }
}
