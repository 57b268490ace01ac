import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * A long JVM that keeps the JIT busy, for lab/scripts/jvm-fault-rate.sh MODE=long (and MODE=patch,
 * {@link #patch}): THREADS threads
 * for SECONDS, each defining unloadable hidden classes of small methods, calling every method until
 * it is compiled, checking each result against the same arithmetic done here, and dropping the class;
 * one more thread runs everyday JDK code (regex, formatting, streams, collections) and asks for a GC
 * now and then, so classes are unloaded, their code freed and the code cache reused. That is a
 * steady stream of freshly installed nmethods, written by a compiler thread on one vCPU while Java
 * threads run code on the other: where the emulation fault struck in the lab's long test JVM.
 *
 * <p>Prints one line: classes, methods, calls, wrong results. Exit 0 when every result was right,
 * 3 when one was wrong (a miscompiled or stale method that did not crash). Usage:
 * {@code java JitChurn.java THREADS SECONDS [churn|patch]}
 */
public class JitChurn {
    static final int METHODS = 24;
    static final int CALLS = 600;
    static final AtomicLong CLASSES = new AtomicLong();
    static final AtomicLong COMPILED_CALLS = new AtomicLong();
    static final AtomicLong WRONG = new AtomicLong();
    static final AtomicLong SERIAL = new AtomicLong();

    public static void main(String[] args) throws Throwable {
        int threads = Integer.parseInt(args[0]);
        long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        if (args.length > 2 && args[2].equals("patch")) {
            patch(threads, end);
            return;
        }
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            all.add(Thread.ofPlatform().name("churn-" + t).start(() -> churn(end)));
        }
        all.add(Thread.ofPlatform().name("jdk-work").start(() -> jdkWork(end)));
        for (Thread t : all) {
            t.join();
        }
        System.out.printf("JitChurn: %d classes, %d methods, %d calls, %d wrong results%n",
                CLASSES.get(), CLASSES.get() * METHODS, COMPILED_CALLS.get(), WRONG.get());
        System.exit(WRONG.get() == 0 ? 0 : 3);
    }

    /** The arithmetic of generated method {@code i} with constants {@code k}: the reference. */
    static long expected(long x, long k, int i) {
        long s = x ^ k;
        for (int j = 0; j < 8 + i; j++) {
            s = s * 6364136223846793005L + (s >>> (1 + (i & 15))) + k;
        }
        return s;
    }

    static void churn(long end) {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        while (System.nanoTime() < end) {
            long k = SERIAL.incrementAndGet() * 0x9E3779B97F4A7C15L;
            try {
                MethodHandles.Lookup hidden = lookup.defineHiddenClass(generate(k), true);
                Class<?> c = hidden.lookupClass();
                for (int i = 0; i < METHODS; i++) {
                    MethodHandle m = hidden.findStatic(c, "m" + i, MethodType.methodType(long.class, long.class));
                    for (int n = 0; n < CALLS; n++) {
                        long got = (long) m.invokeExact((long) n);
                        if (got != expected(n, k, i)) {
                            WRONG.incrementAndGet();
                            System.out.printf("WRONG: class %d method m%d x=%d: %d, expected %d%n",
                                    k, i, n, got, expected(n, k, i));
                        }
                    }
                    COMPILED_CALLS.addAndGet(CALLS);
                }
                CLASSES.incrementAndGet();
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A hidden class with static methods m0..m(METHODS-1), each computing {@link #expected}. */
    static byte[] generate(long k) {
        ClassDesc self = ClassDesc.of("JitChurn$Gen");
        MethodTypeDesc type = MethodTypeDesc.of(ConstantDescs.CD_long, ConstantDescs.CD_long);
        return ClassFile.of().build(self, cb -> {
            for (int i = 0; i < METHODS; i++) {
                int mi = i;
                cb.withMethodBody("m" + i, type, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC,
                        code -> body(code, k, mi));
            }
        });
    }

    private static void body(CodeBuilder code, long k, int i) {
        loop(code, k, i);
        code.lload(2).lreturn();
    }

    /** s = {@link #expected}(x, k, i) into locals 2-3 (x in 0-1, the loop counter in 4). */
    private static void loop(CodeBuilder code, long k, int i) {
        code.lload(0).ldc(k).lxor().lstore(2);
        code.iconst_0().istore(4);
        var top = code.newBoundLabel();
        var done = code.newLabel();
        code.iload(4).ldc(8 + i).if_icmpge(done);
        code.lload(2).ldc(6364136223846793005L).lmul();
        code.lload(2).ldc(1 + (i & 15)).lushr().ladd();
        code.ldc(k).ladd().lstore(2);
        code.iinc(4, 1).goto_(top);
        code.labelBinding(done);
    }

    static void jdkWork(long end) {
        Pattern p = Pattern.compile("([a-z]+)-(\\d+)");
        Map<String, Integer> counts = new HashMap<>();
        long sum = 0;
        long nextGc = System.nanoTime() + 2_000_000_000L;
        for (int i = 0; System.nanoTime() < end; i++) {
            Matcher m = p.matcher(String.format("key%s-%d", Integer.toString(i % 97, 36), i));
            if (m.find()) {
                counts.merge(m.group(1), 1, Integer::sum);
            }
            sum += IntStream.range(0, i % 17).map(x -> x * x).sum();
            if (System.nanoTime() > nextGc) {
                System.gc(); // unloads the dropped hidden classes: their code cache space is reused
                nextGc = System.nanoTime() + 2_000_000_000L;
            }
        }
        if (counts.isEmpty() || sum < 0) {
            throw new IllegalStateException("jdk work did nothing");
        }
    }

    // ---- patch mode ------------------------------------------------------------------------------

    static final long TRIGGER = -7;

    /**
     * C1's code patching, raced: each round a fresh class loader defines {@code Gen}, whose methods
     * hold a branch never taken while they are compiled, reading a static field of {@code Holder},
     * a class not yet initialised. C1 compiles such an access as a patch site, and the first thread
     * that takes the branch rewrites those instructions in place. Here all THREADS threads take it
     * at the same moment (a barrier), so while one rewrites the code the others execute it: what
     * HotSpot does at the first run of every freshly compiled method that touches a class not yet
     * initialised, concentrated. Each result is checked.
     */
    static void patch(int threads, long end) throws Throwable {
        java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(threads);
        long rounds = 0;
        while (System.nanoTime() < end) {
            long k = SERIAL.incrementAndGet() * 0x9E3779B97F4A7C15L;
            Class<?> gen = new Loader(k).loadClass("Gen");
            MethodHandle[] ms = new MethodHandle[METHODS];
            for (int i = 0; i < METHODS; i++) {
                ms[i] = MethodHandles.publicLookup().findStatic(gen, "m" + i, MethodType.methodType(long.class, long.class));
            }
            for (int n = 1; n <= 1500; n++) { // compiled with the branch cold: a patch site in each method
                for (MethodHandle m : ms) {
                    long unused = (long) m.invokeExact((long) n);
                }
            }
            Thread.sleep(20); // let the compiles finish
            List<Thread> racers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                racers.add(Thread.ofPlatform().start(() -> {
                    try {
                        barrier.await();
                        for (int i = 0; i < METHODS; i++) {
                            long got = (long) ms[i].invokeExact(TRIGGER);
                            long want = expected(TRIGGER, k, i) + holderValue(k);
                            if (got != want) {
                                WRONG.incrementAndGet();
                                System.out.printf("WRONG: class %d method m%d: %d, expected %d%n", k, i, got, want);
                            }
                        }
                    } catch (Throwable e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (Thread t : racers) {
                t.join();
            }
            CLASSES.incrementAndGet();
            COMPILED_CALLS.addAndGet((1500L + threads) * METHODS);
            if (++rounds % 64 == 0) {
                System.gc();
            }
        }
        System.out.printf("JitChurn: %d classes, %d methods, %d calls, %d wrong results%n",
                CLASSES.get(), CLASSES.get() * METHODS, COMPILED_CALLS.get(), WRONG.get());
        System.exit(WRONG.get() == 0 ? 0 : 3);
    }

    static long holderValue(long k) {
        return k * 3 + 1;
    }

    /** Defines Gen and Holder for one round; unloaded with the loader. */
    static final class Loader extends ClassLoader {
        private final long k;

        Loader(long k) {
            super(JitChurn.class.getClassLoader());
            this.k = k;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = switch (name) {
                case "Gen" -> genWithPatchSites(k);
                case "Holder" -> holder(k);
                default -> throw new ClassNotFoundException(name);
            };
            return defineClass(name, b, 0, b.length);
        }
    }

    static byte[] holder(long k) {
        ClassDesc self = ClassDesc.of("Holder");
        return ClassFile.of().build(self, cb -> {
            cb.withFlags(ClassFile.ACC_PUBLIC);
            cb.withField("X", ConstantDescs.CD_long, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC);
            cb.withMethodBody("<clinit>", MethodTypeDesc.of(ConstantDescs.CD_void), ClassFile.ACC_STATIC,
                    code -> code.ldc(holderValue(k)).putstatic(self, "X", ConstantDescs.CD_long).return_());
        });
    }

    static byte[] genWithPatchSites(long k) {
        ClassDesc self = ClassDesc.of("Gen");
        ClassDesc holder = ClassDesc.of("Holder");
        MethodTypeDesc type = MethodTypeDesc.of(ConstantDescs.CD_long, ConstantDescs.CD_long);
        return ClassFile.of().build(self, cb -> {
            cb.withFlags(ClassFile.ACC_PUBLIC);
            for (int i = 0; i < METHODS; i++) {
                int mi = i;
                cb.withMethodBody("m" + i, type, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, code -> {
                    loop(code, k, mi);
                    var ret = code.newLabel();
                    code.lload(0).ldc(TRIGGER).lcmp().ifne(ret);
                    code.lload(2).getstatic(holder, "X", ConstantDescs.CD_long).ladd().lstore(2);
                    code.labelBinding(ret);
                    code.lload(2).lreturn();
                });
            }
        });
    }
}
