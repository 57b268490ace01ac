package io.jperf.verbs;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ownership rules every verbs object inherits, on resources with no native part. */
class NativeResourceTest {
    private final List<String> destroyed = new ArrayList<>();

    private final class Fake extends NativeResource {
        private final String name;
        private RuntimeException failure;

        Fake(String name, NativeResource parent, NativeResource... uses) {
            super(parent, uses);
            this.name = name;
        }

        void use() {
            ensureOpen();
        }

        @Override
        protected void destroy() {
            destroyed.add(name);
            if (failure != null) {
                throw failure;
            }
        }

        @Override
        protected String describe() {
            return "Fake " + name;
        }
    }

    @Test
    void closingAParentClosesChildrenFirstNewestFirst() {
        Fake ctx = new Fake("ctx", null);
        Fake pd = new Fake("pd", ctx);
        Fake cq = new Fake("cq", ctx);
        Fake mr = new Fake("mr", pd);
        Fake qp = new Fake("qp", pd, cq);

        ctx.close();

        assertEquals(List.of("qp", "cq", "mr", "pd", "ctx"), destroyed);
        assertTrue(qp.isClosed() && mr.isClosed() && pd.isClosed() && cq.isClosed() && ctx.isClosed());
    }

    @Test
    void closingAUsedResourceClosesItsUsersFirst() {
        Fake ctx = new Fake("ctx", null);
        Fake cq = new Fake("cq", ctx);
        Fake pd = new Fake("pd", ctx);
        Fake qp = new Fake("qp", pd, cq);

        ctx.close();

        assertEquals(List.of("qp", "pd", "cq", "ctx"), destroyed,
                "the QP uses the CQ, so it goes before the CQ although the CQ is older than the PD");
    }

    @Test
    void closeIsIdempotent() {
        Fake ctx = new Fake("ctx", null);
        Fake pd = new Fake("pd", ctx);
        pd.close();
        pd.close();
        ctx.close();
        ctx.close();
        assertEquals(List.of("pd", "ctx"), destroyed);
    }

    @Test
    void aClosedChildLeavesItsParentsRegistry() {
        Fake ctx = new Fake("ctx", null);
        Fake pd = new Fake("pd", ctx);
        Fake cq = new Fake("cq", ctx);
        assertEquals(List.of(pd, cq), ctx.children());
        pd.close();
        assertEquals(List.of(cq), ctx.children());
    }

    @Test
    void useAfterCloseIsAClearException() {
        Fake ctx = new Fake("ctx", null);
        Fake pd = new Fake("pd", ctx);
        ctx.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, pd::use);
        assertEquals("Fake pd is closed", e.getMessage());
    }

    @Test
    void aClosedParentRefusesNewChildren() {
        Fake ctx = new Fake("ctx", null);
        ctx.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new Fake("pd", ctx));
        assertEquals("Fake ctx is closed", e.getMessage());
    }

    @Test
    void aFailingChildDoesNotStopTheRestAndIsReported() {
        Fake ctx = new Fake("ctx", null);
        Fake pd = new Fake("pd", ctx);
        Fake mr = new Fake("mr", pd);
        RuntimeException boom = new RuntimeException("ibv_dereg_mr failed");
        mr.failure = boom;

        RuntimeException thrown = assertThrows(RuntimeException.class, ctx::close);

        assertSame(boom, thrown);
        assertEquals(List.of("mr", "pd", "ctx"), destroyed);
        assertTrue(ctx.isClosed());
    }
}
