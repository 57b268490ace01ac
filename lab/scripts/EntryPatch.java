import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicLong;
import jdk.test.whitebox.WhiteBox;

/**
 * A reproducer aimed at one suspect of the lab's emulation fault (lab/README.md): HotSpot making a
 * compiled method not entrant, which on x86 rewrites the first bytes of its verified entry in place
 * while other threads may be calling it. CALLERS threads call {@link #target} in a loop (never
 * inlined: -XX:CompileCommand=dontinline) and check every result; one patcher thread, for SECONDS,
 * compiles {@code target} at LEVEL through HotSpot's WhiteBox API, lets the callers run into the new
 * code, then deoptimizes it (the entry rewrite), over and over. On real x86 this is safe; a
 * translation of half-rewritten bytes shows up as SIGILL/SIGSEGV at the method's entry, a hang, or a
 * wrong result.
 *
 * <p>Run by lab/scripts/jvm-fault-rate.sh MODE=entry. Prints one line
 * {@code EntryPatch: P entry rewrites, C calls, W wrong}; exit 0 when every result was right, 3 when
 * one was wrong, 4 when no rewrite happened (the JVM did not compile as asked: nothing was tested).
 * Usage: {@code java ... EntryPatch.java CALLERS SECONDS LEVEL}
 */
public class EntryPatch {
    static volatile boolean stop;
    static final AtomicLong CALLS = new AtomicLong();
    static final AtomicLong WRONG = new AtomicLong();

    static int target(int x) {
        int r = x;
        for (int i = 0; i < 3; i++) {
            r = r * 31 + i;
        }
        return r ^ (x >>> 3);
    }

    /** The same arithmetic as {@link #target}, compiled once and left alone. */
    static int reference(int x) {
        return ((((x * 31) * 31 + 1) * 31) + 2) ^ (x >>> 3);
    }

    public static void main(String[] args) throws Exception {
        int callers = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        int level = Integer.parseInt(args[2]);
        WhiteBox wb = new WhiteBox();
        Method m = EntryPatch.class.getDeclaredMethod("target", int.class);
        Thread[] threads = new Thread[callers];
        for (int t = 0; t < callers; t++) {
            threads[t] = new Thread(EntryPatch::call, "caller-" + t);
            threads[t].start();
        }
        long patches = 0;
        long compileWaits = 0;
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            if (!wb.isMethodCompiled0(m, false)) {
                wb.enqueueMethodForCompilation0(m, level, -1);
                long give = System.nanoTime() + 5_000_000_000L;
                while (!wb.isMethodCompiled0(m, false) && System.nanoTime() < give) {
                    Thread.onSpinWait();
                }
                compileWaits++;
            }
            long calls = CALLS.get();
            long give = System.nanoTime() + 2_000_000L;
            while (CALLS.get() - calls < 64 && System.nanoTime() < give) {
                Thread.onSpinWait();
            }
            if (wb.deoptimizeMethod0(m, false) > 0) {
                patches++;
            }
        }
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("EntryPatch: " + patches + " entry rewrites (level " + level + ", " + compileWaits
                + " compilations), " + CALLS.get() + " calls by " + callers + " threads in " + seconds + " s, "
                + WRONG.get() + " wrong");
        System.exit(WRONG.get() > 0 ? 3 : patches == 0 ? 4 : 0);
    }

    static void call() {
        int i = 0;
        while (!stop) {
            for (int k = 0; k < 16; k++, i++) {
                if (target(i) != reference(i)) {
                    WRONG.incrementAndGet();
                }
            }
            CALLS.addAndGet(16);
        }
    }
}
