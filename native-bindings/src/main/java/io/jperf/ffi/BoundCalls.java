package io.jperf.ffi;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes {@link InlineVerbs.PostCall} and {@link InlineVerbs.PollCall} instances whose downcall is a
 * compile-time constant bound to one provider function: a small hidden class per function
 * address, holding the bound downcall handle in a {@code static final} field (its class data).
 *
 * <p>Why: a downcall handle that takes the function pointer as a {@code MemorySegment} argument
 * re-checks that segment (its address against NULL, its session's class) on every call, because
 * the JIT cannot keep those loads across the previous downcall; a post loop paid about 0.5 ns per
 * {@code post_send} for it. A handle constant in a {@code static final} field is folded by the JIT,
 * target address included, under C2 and C1 alike, and nothing is allocated per call.
 *
 * <p>One class per (kind, address), cached: a process has one provider per device, so a call
 * site in a loop sees one implementation. Thread-safe.
 */
final class BoundCalls {
    private static final ClassDesc CD_POST_CALL = ClassDesc.of(InlineVerbs.PostCall.class.getName());
    private static final ClassDesc CD_POLL_CALL = ClassDesc.of(InlineVerbs.PollCall.class.getName());
    private static final MethodTypeDesc POST_TYPE = MethodTypeDesc.of(ConstantDescs.CD_int,
            ConstantDescs.CD_long, ConstantDescs.CD_long, ConstantDescs.CD_long);
    private static final MethodTypeDesc POLL_TYPE = MethodTypeDesc.of(ConstantDescs.CD_int,
            ConstantDescs.CD_long, ConstantDescs.CD_int, ConstantDescs.CD_long);
    private static final String TARGET = "TARGET";

    private static final Map<Key, Object> CACHE = new ConcurrentHashMap<>();

    private record Key(String kind, long address) {
    }

    private BoundCalls() {
    }

    /** {@code handle} (a raw post downcall: function pointer, then three addresses) bound to {@code fn}. */
    static InlineVerbs.PostCall post(String kind, MethodHandle handle, MemorySegment fn) {
        return (InlineVerbs.PostCall) CACHE.computeIfAbsent(new Key(kind, fn.address()),
                k -> define(CD_POST_CALL, POST_TYPE, MethodHandles.insertArguments(handle, 0, fn)));
    }

    /** {@code handle} (a raw poll downcall: function pointer, CQ, count, array) bound to {@code fn}. */
    static InlineVerbs.PollCall poll(String kind, MethodHandle handle, MemorySegment fn) {
        return (InlineVerbs.PollCall) CACHE.computeIfAbsent(new Key(kind, fn.address()),
                k -> define(CD_POLL_CALL, POLL_TYPE, MethodHandles.insertArguments(handle, 0, fn)));
    }

    /**
     * A hidden class implementing {@code iface}'s single method {@code invoke} as
     * {@code TARGET.invokeExact(args)}, with {@code TARGET} a static final set from the class data.
     */
    private static Object define(ClassDesc iface, MethodTypeDesc type, MethodHandle target) {
        ClassDesc self = ClassDesc.of(BoundCalls.class.getPackageName() + ".BoundCall");
        byte[] bytes = ClassFile.of().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            clb.withInterfaceSymbols(iface);
            clb.withField(TARGET, ConstantDescs.CD_MethodHandle,
                    ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC | ClassFile.ACC_FINAL);
            clb.withMethodBody(ConstantDescs.CLASS_INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_STATIC, cob -> cob
                    .ldc(DynamicConstantDesc.ofNamed(ConstantDescs.BSM_CLASS_DATA, ConstantDescs.DEFAULT_NAME,
                            ConstantDescs.CD_MethodHandle))
                    .putstatic(self, TARGET, ConstantDescs.CD_MethodHandle)
                    .return_());
            clb.withMethodBody(ConstantDescs.INIT_NAME, ConstantDescs.MTD_void, ClassFile.ACC_PUBLIC, cob -> cob
                    .aload(0)
                    .invokespecial(ConstantDescs.CD_Object, ConstantDescs.INIT_NAME, ConstantDescs.MTD_void)
                    .return_());
            clb.withMethodBody("invoke", type, ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL, cob -> {
                cob.getstatic(self, TARGET, ConstantDescs.CD_MethodHandle);
                int slot = 1;
                for (ClassDesc parameter : type.parameterList()) {
                    cob.loadLocal(java.lang.classfile.TypeKind.from(parameter), slot);
                    slot += parameter.equals(ConstantDescs.CD_long) ? 2 : 1;
                }
                cob.invokevirtual(ConstantDescs.CD_MethodHandle, "invokeExact", type).ireturn();
            });
        });
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClassWithClassData(bytes, target, true);
            return lookup.findConstructor(lookup.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("cannot define the bound downcall class for " + iface.displayName(), e);
        }
    }
}
