package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.ffi.generated.ibv_context;
import io.jperf.ffi.generated.ibv_context_ops;
import io.jperf.ffi.generated.ibv_cq;
import io.jperf.ffi.generated.ibv_qp;
import io.jperf.ffi.generated.ibv_recv_wr;
import io.jperf.ffi.generated.ibv_send_wr;
import io.jperf.ffi.generated.ibv_wc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * InlineVerbs against a fake ibv_context/ibv_qp/ibv_cq built in native memory.
 *
 * <p>Reading the function pointers is checked with upcall stubs (never called). Calling them is
 * checked with a small C stub (src/test/c/fake_verbs_ops.c): InlineVerbs' handles are critical,
 * and a critical downcall into an upcall stub aborts the JVM ("wrong thread state for upcall").
 */
@SuppressWarnings("restricted")
class InlineVerbsTest {

    /** A fake verbs object graph: context with ops, a QP and a CQ pointing at it. */
    record Fake(MemorySegment context, MemorySegment qp, MemorySegment cq) {
        static Fake allocate(Arena arena) {
            MemorySegment context = arena.allocate(ibv_context.layout());
            MemorySegment qp = arena.allocate(ibv_qp.layout());
            MemorySegment cq = arena.allocate(ibv_cq.layout());
            ibv_qp.context(qp, context);
            ibv_cq.context(cq, context);
            return new Fake(context, qp, cq);
        }

        MemorySegment ops() {
            return ibv_context.ops(context);
        }

        /** The QP as a C library returns it: a zero-length segment at that address. */
        MemorySegment rawQp() {
            return MemorySegment.ofAddress(qp.address());
        }

        MemorySegment rawCq() {
            return MemorySegment.ofAddress(cq.address());
        }
    }

    static int unused(MemorySegment a, int b, MemorySegment c) {
        throw new AssertionError("never called");
    }

    @Test
    void functionPointersAreReadFromContextOps() throws Exception {
        MethodHandle target = MethodHandles.lookup().findStatic(InlineVerbsTest.class, "unused",
                MethodType.methodType(int.class, MemorySegment.class, int.class, MemorySegment.class));
        FunctionDescriptor descriptor = FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS);
        try (Arena arena = Arena.ofConfined()) {
            Fake fake = Fake.allocate(arena);
            // Four distinct stubs, so a wrong offset returns a wrong (or NULL) pointer.
            MemorySegment pollCq = Linker.nativeLinker().upcallStub(target, descriptor, arena);
            MemorySegment reqNotify = Linker.nativeLinker().upcallStub(target, descriptor, arena);
            MemorySegment postSend = Linker.nativeLinker().upcallStub(target, descriptor, arena);
            MemorySegment postRecv = Linker.nativeLinker().upcallStub(target, descriptor, arena);
            ibv_context_ops.poll_cq(fake.ops(), pollCq);
            ibv_context_ops.req_notify_cq(fake.ops(), reqNotify);
            ibv_context_ops.post_send(fake.ops(), postSend);
            ibv_context_ops.post_recv(fake.ops(), postRecv);

            assertEquals(pollCq.address(), InlineVerbs.pollCqFn(fake.rawCq()).address(), "poll_cq");
            assertEquals(reqNotify.address(), InlineVerbs.reqNotifyCqFn(fake.rawCq()).address(), "req_notify_cq");
            assertEquals(postSend.address(), InlineVerbs.postSendFn(fake.rawQp()).address(), "post_send");
            assertEquals(postRecv.address(), InlineVerbs.postRecvFn(fake.rawQp()).address(), "post_recv");
        }
    }

    @Test
    void nullPointersAreRejectedWithAMessage() {
        try (Arena arena = Arena.ofConfined()) {
            Fake fake = Fake.allocate(arena);
            IllegalStateException noOp = assertThrows(IllegalStateException.class,
                    () -> InlineVerbs.pollCqFn(fake.rawCq()));
            assertTrue(noOp.getMessage().contains("poll_cq"), noOp.getMessage());
            assertThrows(IllegalArgumentException.class, () -> InlineVerbs.postSendFn(MemorySegment.NULL));
            ibv_qp.context(fake.qp(), MemorySegment.NULL);
            IllegalArgumentException noContext = assertThrows(IllegalArgumentException.class,
                    () -> InlineVerbs.postSendFn(fake.rawQp()));
            assertTrue(noContext.getMessage().contains("qp->context"), noContext.getMessage());
        }
    }

    @Test
    void callsGoThroughTheProviderPointersWithTheirArguments() {
        NativeToolchain.requireGccAndHeaders();
        Path library;
        try {
            library = NativeToolchain.workDir().resolve("libfakeverbsops.so");
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        NativeToolchain.gcc("-std=gnu11", "-Wall", "-Werror", "-shared", "-fPIC", "-O2",
                "-o", library.toString(), NativeToolchain.testSource("fake_verbs_ops.c").toString());

        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup stub = SymbolLookup.libraryLookup(library, arena);
            Fake fake = Fake.allocate(arena);
            ibv_context_ops.poll_cq(fake.ops(), stub.findOrThrow("fake_poll_cq"));
            ibv_context_ops.req_notify_cq(fake.ops(), stub.findOrThrow("fake_req_notify_cq"));
            ibv_context_ops.post_send(fake.ops(), stub.findOrThrow("fake_post_send"));
            ibv_context_ops.post_recv(fake.ops(), stub.findOrThrow("fake_post_recv"));
            Recorded recorded = new Recorded(stub);

            // poll_cq: 3 completions written into the caller's array
            MemorySegment wc = ibv_wc.allocateArray(16, arena);
            MemorySegment cq = fake.rawCq();
            assertEquals(3, InlineVerbs.pollCq(InlineVerbs.pollCqFn(cq), cq, 16, wc));
            assertEquals(fake.cq().address(), recorded.ptr(0), "poll_cq cq argument");
            assertEquals(16, recorded.intArg(), "poll_cq num_entries argument");
            assertEquals(wc.address(), recorded.ptr(1), "poll_cq wc argument");
            assertEquals(101, ibv_wc.wr_id(ibv_wc.asSlice(wc, 1)), "wc[1].wr_id written by the provider");

            // req_notify_cq
            assertEquals(41, InlineVerbs.reqNotifyCq(InlineVerbs.reqNotifyCqFn(cq), cq, 1));
            assertEquals(fake.cq().address(), recorded.ptr(0), "req_notify_cq cq argument");
            assertEquals(1, recorded.intArg(), "req_notify_cq solicited_only argument");

            // post_send: returns ENOMEM and reports the first request as bad
            MemorySegment qp = fake.rawQp();
            MemorySegment sendWr = arena.allocate(ibv_send_wr.layout());
            MemorySegment badSend = arena.allocate(ValueLayout.ADDRESS);
            assertEquals(12, InlineVerbs.postSend(InlineVerbs.postSendFn(qp), qp, sendWr, badSend), "ENOMEM from the provider");
            assertEquals(fake.qp().address(), recorded.ptr(0), "post_send qp argument");
            assertEquals(sendWr.address(), recorded.ptr(1), "post_send wr argument");
            assertEquals(badSend.address(), recorded.ptr(2), "post_send bad_wr argument");
            assertEquals(sendWr.address(), badSend.get(ValueLayout.ADDRESS, 0).address(), "*bad_wr");

            // post_recv
            MemorySegment recvWr = arena.allocate(ibv_recv_wr.layout());
            MemorySegment badRecv = arena.allocate(ValueLayout.ADDRESS);
            assertEquals(0, InlineVerbs.postRecv(InlineVerbs.postRecvFn(qp), qp, recvWr, badRecv));
            assertEquals(recvWr.address(), recorded.ptr(1), "post_recv wr argument");
            assertEquals(4, recorded.calls(), "each call reached the C stub once");
        }
    }

    /** Reads the globals fake_verbs_ops.c records its arguments in. */
    private record Recorded(SymbolLookup stub) {
        long ptr(int index) {
            return global("fake_arg_ptr" + index, ValueLayout.ADDRESS.byteSize()).get(ValueLayout.ADDRESS, 0).address();
        }

        int intArg() {
            return global("fake_arg_int", 4).get(ValueLayout.JAVA_INT, 0);
        }

        int calls() {
            return global("fake_calls", 4).get(ValueLayout.JAVA_INT, 0);
        }

        private MemorySegment global(String name, long size) {
            return stub.findOrThrow(name).reinterpret(size);
        }
    }
}
