package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jperf.ffi.generated._ibv_device_ops;
import io.jperf.ffi.generated.ibv_ah_attr;
import io.jperf.ffi.generated.ibv_async_event;
import io.jperf.ffi.generated.ibv_comp_channel;
import io.jperf.ffi.generated.ibv_context;
import io.jperf.ffi.generated.ibv_context_ops;
import io.jperf.ffi.generated.ibv_cq;
import io.jperf.ffi.generated.ibv_device;
import io.jperf.ffi.generated.ibv_device_attr;
import io.jperf.ffi.generated.ibv_gid;
import io.jperf.ffi.generated.ibv_gid_entry;
import io.jperf.ffi.generated.ibv_global_route;
import io.jperf.ffi.generated.ibv_mr;
import io.jperf.ffi.generated.ibv_mw_bind_info;
import io.jperf.ffi.generated.ibv_pd;
import io.jperf.ffi.generated.ibv_port_attr;
import io.jperf.ffi.generated.ibv_qp;
import io.jperf.ffi.generated.ibv_qp_attr;
import io.jperf.ffi.generated.ibv_qp_cap;
import io.jperf.ffi.generated.ibv_qp_init_attr;
import io.jperf.ffi.generated.ibv_recv_wr;
import io.jperf.ffi.generated.ibv_send_wr;
import io.jperf.ffi.generated.ibv_sge;
import io.jperf.ffi.generated.ibv_wc;
import io.jperf.ffi.generated.in6_addr;
import io.jperf.ffi.generated.in_addr;
import io.jperf.ffi.generated.pthread_cond_t;
import io.jperf.ffi.generated.pthread_mutex_t;
import io.jperf.ffi.generated.rdma_addr;
import io.jperf.ffi.generated.rdma_cm_event;
import io.jperf.ffi.generated.rdma_cm_id;
import io.jperf.ffi.generated.rdma_conn_param;
import io.jperf.ffi.generated.rdma_event_channel;
import io.jperf.ffi.generated.rdma_ib_addr;
import io.jperf.ffi.generated.rdma_route;
import io.jperf.ffi.generated.rdma_ud_param;
import io.jperf.ffi.generated.sockaddr;
import io.jperf.ffi.generated.sockaddr_in;
import io.jperf.ffi.generated.sockaddr_in6;
import io.jperf.ffi.generated.sockaddr_storage;
import io.jperf.ffi.generated.verbs_context;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Every size and offset of the generated layouts equals what gcc computes from the installed
 * headers. The C program is generated from the Java layouts (each named member, nested members
 * by dotted path, anonymous struct/union members flattened the way C names them), compiled into
 * target/native-test and run; a mismatch names the type and the field.
 */
class LayoutConformanceTest {

    /** C type name -> generated layout: the types jperf reads or writes, and their by-value members. */
    private static final Map<String, GroupLayout> TYPES = new LinkedHashMap<>();

    static {
        TYPES.put("struct ibv_device", ibv_device.layout());
        TYPES.put("struct _ibv_device_ops", _ibv_device_ops.layout());
        TYPES.put("struct ibv_context", ibv_context.layout());
        TYPES.put("struct ibv_context_ops", ibv_context_ops.layout());
        TYPES.put("struct verbs_context", verbs_context.layout());
        TYPES.put("struct ibv_device_attr", ibv_device_attr.layout());
        TYPES.put("struct ibv_port_attr", ibv_port_attr.layout());
        TYPES.put("union ibv_gid", ibv_gid.layout());
        TYPES.put("struct ibv_gid_entry", ibv_gid_entry.layout());
        TYPES.put("struct ibv_pd", ibv_pd.layout());
        TYPES.put("struct ibv_mr", ibv_mr.layout());
        TYPES.put("struct ibv_comp_channel", ibv_comp_channel.layout());
        TYPES.put("struct ibv_cq", ibv_cq.layout());
        TYPES.put("struct ibv_qp", ibv_qp.layout());
        TYPES.put("struct ibv_qp_init_attr", ibv_qp_init_attr.layout());
        TYPES.put("struct ibv_qp_cap", ibv_qp_cap.layout());
        TYPES.put("struct ibv_qp_attr", ibv_qp_attr.layout());
        TYPES.put("struct ibv_ah_attr", ibv_ah_attr.layout());
        TYPES.put("struct ibv_global_route", ibv_global_route.layout());
        TYPES.put("struct ibv_send_wr", ibv_send_wr.layout());
        TYPES.put("struct ibv_mw_bind_info", ibv_mw_bind_info.layout());
        TYPES.put("struct ibv_recv_wr", ibv_recv_wr.layout());
        TYPES.put("struct ibv_sge", ibv_sge.layout());
        TYPES.put("struct ibv_wc", ibv_wc.layout());
        TYPES.put("struct ibv_async_event", ibv_async_event.layout());
        TYPES.put("struct rdma_cm_id", rdma_cm_id.layout());
        TYPES.put("struct rdma_cm_event", rdma_cm_event.layout());
        TYPES.put("struct rdma_conn_param", rdma_conn_param.layout());
        TYPES.put("struct rdma_ud_param", rdma_ud_param.layout());
        TYPES.put("struct rdma_event_channel", rdma_event_channel.layout());
        TYPES.put("struct rdma_route", rdma_route.layout());
        TYPES.put("struct rdma_addr", rdma_addr.layout());
        TYPES.put("struct rdma_ib_addr", rdma_ib_addr.layout());
        TYPES.put("struct sockaddr", sockaddr.layout());
        TYPES.put("struct sockaddr_in", sockaddr_in.layout());
        TYPES.put("struct sockaddr_in6", sockaddr_in6.layout());
        TYPES.put("struct sockaddr_storage", sockaddr_storage.layout());
        TYPES.put("struct in_addr", in_addr.layout());
        TYPES.put("struct in6_addr", in6_addr.layout());
        TYPES.put("pthread_mutex_t", pthread_mutex_t.layout());
        TYPES.put("pthread_cond_t", pthread_cond_t.layout());
    }

    /** One expected fact: offsetof and sizeof of {@code path} in {@code type} ("" = the type itself). */
    record Check(String type, String path, long offset, long size) {
        String key() {
            return type + "|" + path;
        }
    }

    @Test
    void generatedLayoutsMatchGcc() throws IOException {
        NativeToolchain.requireGccAndHeaders();

        List<Check> checks = new ArrayList<>();
        TYPES.forEach((type, layout) -> {
            checks.add(new Check(type, "", 0, layout.byteSize()));
            collect(type, layout, "", 0, checks);
        });

        Path dir = NativeToolchain.workDir();
        Path source = dir.resolve("layout_check.c");
        Path binary = dir.resolve("layout_check");
        Files.writeString(source, cProgram(checks));
        NativeToolchain.gcc("-std=gnu11", "-Wall", "-Werror", "-o", binary.toString(), source.toString());
        NativeToolchain.Result run = NativeToolchain.run(List.of(binary.toString()));
        assertEquals(0, run.exitCode(), () -> "layout_check failed:\n" + run.output());

        Map<String, long[]> actual = new LinkedHashMap<>();
        for (String line : run.output().split("\n")) {
            String[] f = line.split("\\|", -1);
            if (f.length == 4) {
                actual.put(f[0] + "|" + f[1], new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])});
            }
        }

        List<String> mismatches = new ArrayList<>();
        for (Check c : checks) {
            long[] gcc = actual.get(c.key());
            String what = c.path().isEmpty() ? c.type() : c.type() + " field " + c.path();
            if (gcc == null) {
                mismatches.add(what + ": no output from the C program");
            } else if (gcc[0] != c.offset() || gcc[1] != c.size()) {
                mismatches.add(what + ": Java offset " + c.offset() + " size " + c.size()
                        + ", gcc offset " + gcc[0] + " size " + gcc[1]);
            }
        }
        if (!mismatches.isEmpty()) {
            fail(mismatches.size() + " layout mismatch(es) between io.jperf.ffi.generated and the installed headers"
                    + " (regenerate with jextract/regenerate.sh):\n  " + String.join("\n  ", mismatches));
        }
        // Guard against a walk that silently checks nothing.
        assertTrue(checks.size() > 400, () -> "only " + checks.size() + " checks generated");
        assertEquals(48, ibv_wc.layout().byteSize(), "struct ibv_wc (bindings-facts.md)");
        assertEquals(320, verbs_context.layout().byteOffset(MemoryLayout.PathElement.groupElement("context")),
                "verbs_context.context offset (bindings-facts.md)");
    }

    /**
     * Adds a check for every named member of {@code group} (at {@code base} in the outer type),
     * recursing into nested structs/unions. jextract names anonymous members "$anon$line:col";
     * C reaches their members without a name, so they add nothing to the path.
     */
    private static void collect(String type, GroupLayout group, String prefix, long base, List<Check> out) {
        long offset = 0;
        for (MemoryLayout member : group.memberLayouts()) {
            long at = base + (group instanceof StructLayout ? offset : 0);
            if (group instanceof StructLayout) {
                offset += member.byteSize();
            }
            if (member instanceof PaddingLayout) {
                continue;
            }
            String name = member.name().orElseThrow(
                    () -> new AssertionError(type + ": unnamed non-padding member under '" + prefix + "'"));
            boolean anonymous = name.startsWith("$anon$");
            String path = anonymous ? prefix : prefix.isEmpty() ? name : prefix + "." + name;
            if (!anonymous) {
                out.add(new Check(type, path, at, member.byteSize()));
            }
            if (member instanceof GroupLayout nested) {
                collect(type, nested, path, at, out);
            }
        }
    }

    private static String cProgram(List<Check> checks) {
        StringBuilder c = new StringBuilder("""
                /* Generated by io.jperf.ffi.LayoutConformanceTest from the jextract layouts. */
                #include <stddef.h>
                #include <stdio.h>
                #include <pthread.h>
                #include <sys/socket.h>
                #include <netinet/in.h>
                #include <infiniband/verbs.h>
                #include <rdma/rdma_cma.h>

                int main(void) {
                """);
        for (Check check : checks) {
            String t = check.type();
            if (check.path().isEmpty()) {
                c.append("    printf(\"%s||0|%zu\\n\", \"").append(t).append("\", sizeof(").append(t).append("));\n");
            } else {
                String p = check.path();
                c.append("    printf(\"%s|%s|%zu|%zu\\n\", \"").append(t).append("\", \"").append(p)
                        .append("\", offsetof(").append(t).append(", ").append(p)
                        .append("), sizeof(((").append(t).append(" *)0)->").append(p).append("));\n");
            }
        }
        return c.append("    return 0;\n}\n").toString();
    }
}
