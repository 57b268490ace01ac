package io.jperf.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Byte-level mutations of corpus seeds, the way coverage-guided fuzzers mutate (bit flips,
 * interesting bytes and numbers, deletions, insertions, duplications, truncation, splicing two
 * seeds), driven by a seeded {@link Random} so that every case can be replayed. A share of the
 * inputs is the seeds unchanged, and a share is random bytes.
 */
public final class Mutator {
    private static final byte[] INTERESTING_BYTES = {0, -1, 0x7f, (byte) 0x80, '\n', '\r', '=', 0x1b, '-', '9', ':',
        '.', ' ', '\\', (byte) 0x9b};
    private static final String[] INTERESTING_NUMBERS = {"0", "-1", "1", "2147483647", "2147483648", "-2147483648",
        "4294967296", "9223372036854775807", "9223372036854775808", "99999999999999999999", "100000000", "16384",
        "15000", "1e9", "NaN", "0x10", "+5", " 7", "007", ""};

    private Mutator() {
    }

    /** One input: a seed unchanged (1 in 19), a mutated seed (16 in 19), or random bytes up to {@code maxRandom}. */
    public static byte[] next(List<byte[]> seeds, Random r, int maxRandom) {
        int pick = r.nextInt(19);
        if (pick == 0) {
            return seeds.get(r.nextInt(seeds.size())).clone();
        }
        if (pick <= 16) {
            return mutate(seeds, seeds.get(r.nextInt(seeds.size())), r);
        }
        byte[] b = new byte[r.nextInt(maxRandom + 1)];
        r.nextBytes(b);
        return b;
    }

    /** A string of any UTF-16 units, weighted towards the troublesome ones (controls, C1, format, surrogates). */
    public static String text(Random r, int maxLength) {
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(maxLength + 1);
        for (int i = 0; i < n; i++) {
            sb.append((char) switch (r.nextInt(6)) {
                case 0 -> r.nextInt(0x20);
                case 1 -> 0x7f + r.nextInt(0x21);
                case 2 -> new int[] {0x200e, 0x202a, 0x202e, 0x2066, 0x2069, 0xfeff, 0x2028, 0x00ad}[r.nextInt(8)];
                case 3 -> 0xd800 + r.nextInt(0x800);
                case 4 -> r.nextInt(0x10000);
                default -> 0x20 + r.nextInt(0x5f);
            });
        }
        return sb.toString();
    }

    public static byte[] mutate(List<byte[]> seeds, byte[] seed, Random r) {
        byte[] b = seed.clone();
        int ops = 1 + r.nextInt(4);
        for (int k = 0; k < ops; k++) {
            b = once(seeds, b, r);
        }
        return b;
    }

    private static byte[] once(List<byte[]> seeds, byte[] b, Random r) {
        int n = b.length;
        switch (r.nextInt(9)) {
            case 0 -> {
                if (n > 0) {
                    b[r.nextInt(n)] ^= (byte) (1 << r.nextInt(8));
                }
            }
            case 1 -> {
                if (n > 0) {
                    b[r.nextInt(n)] = (byte) r.nextInt(256);
                }
            }
            case 2 -> {
                if (n > 0) {
                    b[r.nextInt(n)] = INTERESTING_BYTES[r.nextInt(INTERESTING_BYTES.length)];
                }
            }
            case 3 -> {
                if (n > 0) {
                    int from = r.nextInt(n);
                    int len = 1 + r.nextInt(Math.min(16, n - from));
                    b = concat(Arrays.copyOfRange(b, 0, from), Arrays.copyOfRange(b, from + len, n));
                }
            }
            case 4 -> {
                int at = n == 0 ? 0 : r.nextInt(n + 1);
                byte[] ins = new byte[1 + r.nextInt(16)];
                r.nextBytes(ins);
                b = concat(Arrays.copyOfRange(b, 0, at), ins, Arrays.copyOfRange(b, at, n));
            }
            case 5 -> {
                if (n > 0) {
                    int from = r.nextInt(n);
                    int len = 1 + r.nextInt(Math.min(64, n - from));
                    int at = r.nextInt(n + 1);
                    b = concat(Arrays.copyOfRange(b, 0, at), Arrays.copyOfRange(b, from, from + len),
                            Arrays.copyOfRange(b, at, n));
                }
            }
            case 6 -> b = Arrays.copyOf(b, n == 0 ? 0 : r.nextInt(n));
            case 7 -> {
                byte[] other = seeds.get(r.nextInt(seeds.size()));
                int cut = n == 0 ? 0 : r.nextInt(n);
                int from = other.length == 0 ? 0 : r.nextInt(other.length);
                b = concat(Arrays.copyOf(b, cut), Arrays.copyOfRange(other, from, other.length));
            }
            default -> b = replaceNumber(b, r);
        }
        return b;
    }

    /** Replaces one run of digits with an interesting number. */
    private static byte[] replaceNumber(byte[] b, Random r) {
        int n = b.length;
        if (n == 0) {
            return b;
        }
        int start = r.nextInt(n);
        while (start < n && !isDigit(b[start])) {
            start++;
        }
        if (start == n) {
            return b;
        }
        int end = start;
        while (end < n && isDigit(b[end])) {
            end++;
        }
        byte[] number = INTERESTING_NUMBERS[r.nextInt(INTERESTING_NUMBERS.length)].getBytes(StandardCharsets.US_ASCII);
        return concat(Arrays.copyOf(b, start), number, Arrays.copyOfRange(b, end, n));
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private static byte[] concat(byte[]... parts) {
        int len = 0;
        for (byte[] p : parts) {
            len += p.length;
        }
        byte[] out = new byte[len];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    /** True when {@code text} is safe to show: no control or format characters but line breaks and tabs. */
    public static boolean safeText(String text, boolean linesAllowed) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (linesAllowed && (c == '\n' || c == '\t')) {
                continue;
            }
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.LINE_SEPARATOR
                    || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                return false;
            }
        }
        return true;
    }
}
