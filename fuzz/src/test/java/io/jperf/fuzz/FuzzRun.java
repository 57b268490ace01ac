package io.jperf.fuzz;

import java.util.HexFormat;
import java.util.Random;
import java.util.function.Function;

/**
 * Runs one fuzz target: {@code cases} inputs, each generated from its own seed (the run's base seed
 * plus the case number, so one failing case can be replayed with {@code -Dfuzz.seed=S -Dfuzz.case=N}),
 * each checked with a time bound. A check that throws anything — an assertion or an exception the
 * target should never let out — is a crash; a case over the bound is a hang; either fails the run
 * with the seed, the case and the input. Prints one summary line per target.
 */
public final class FuzzRun<T> {
    /** A check of one input; throws when the target misbehaved. */
    public interface Check<T> {
        void accept(T input) throws Exception;
    }

    private final String name;
    private final int cases;
    private final long hangMillis;

    private FuzzRun(String name, int cases, long hangMillis) {
        this.name = name;
        this.cases = cases;
        this.hangMillis = hangMillis;
    }

    /** {@code cases} times {@code fuzz.scale} (default 1) cases; a case over {@code hangMillis} is a hang. */
    public static <T> FuzzRun<T> of(String name, int cases, long hangMillis) {
        int scale = Integer.getInteger("fuzz.scale", 1);
        return new FuzzRun<>(name, Math.max(1, cases * scale), hangMillis);
    }

    /** Generates and checks every case; returns how many ran. */
    public int run(Function<Random, T> generator, Check<T> check) {
        long base = Long.getLong("fuzz.seed", new Random().nextLong());
        Integer only = Integer.getInteger("fuzz.case");
        long slowest = 0;
        long t0 = System.nanoTime();
        int ran = 0;
        for (int i = only != null ? only : 0; i < (only != null ? only + 1 : cases); i++) {
            T input = generator.apply(new Random(base + i));
            long start = System.nanoTime();
            try {
                check.accept(input);
            } catch (Throwable t) {
                throw new AssertionError(name + ": crash in case " + i + " (replay: -Dfuzz.seed=" + base
                        + " -Dfuzz.case=" + i + "), input " + show(input) + ": " + t, t);
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            slowest = Math.max(slowest, ms);
            if (ms > hangMillis) {
                throw new AssertionError(name + ": hang in case " + i + " (" + ms + " ms, bound " + hangMillis
                        + " ms; replay: -Dfuzz.seed=" + base + " -Dfuzz.case=" + i + "), input " + show(input));
            }
            ran++;
        }
        System.out.printf("fuzz %s: %d cases, 0 crashes, 0 hangs, slowest case %d ms, %.1f s, seed %d%n", name, ran,
                slowest, (System.nanoTime() - t0) / 1e9, base);
        return ran;
    }

    private static String show(Object input) {
        String s = input instanceof byte[] b ? HexFormat.of().formatHex(b) : String.valueOf(input);
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }
}
