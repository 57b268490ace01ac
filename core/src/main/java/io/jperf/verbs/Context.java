package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.NativeBytes;
import io.jperf.ffi.generated.ibv_device_attr;
import io.jperf.ffi.generated.ibv_gid;
import io.jperf.ffi.generated.ibv_gid_entry;
import io.jperf.ffi.generated.ibv_port_attr;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An open RDMA device ({@code struct ibv_context}): the root of every other verbs object.
 * Closing it closes everything created from it first. See {@link NativeResource} for the
 * ownership and threading rules.
 */
public final class Context extends NativeResource {
    private final String deviceName;
    private final MemorySegment handle;
    private final boolean owned;

    private Context(String deviceName, MemorySegment handle, boolean owned) {
        super(null);
        this.deviceName = deviceName;
        this.handle = handle;
        this.owned = owned;
    }

    /**
     * Wraps a device context another library opened and keeps open, e.g. librdmacm's
     * {@code cm_id->verbs}: closing this object closes what was created from it, but not the device.
     */
    public static Context borrow(String deviceName, MemorySegment handle) {
        return new Context(deviceName, handle, false);
    }

    static Context open(String name, MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment ctx = ErrnoCalls.ibv_open_device(state, device);
            if (ctx.equals(MemorySegment.NULL)) {
                int errno = ErrnoCalls.errno(state);
                throw RdmaException.of("ibv_open_device(" + name + ")", errno);
            }
            return new Context(name, ctx, true);
        }
    }

    public String deviceName() {
        return deviceName;
    }

    /** The {@code struct ibv_context *}, for engines; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** A snapshot of the device, its ports and their valid GID entries. */
    public DeviceInfo query() {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = ibv_device_attr.allocate(arena);
            Calls.check("ibv_query_device(" + deviceName + ")", rdma_h.ibv_query_device(handle, attr));
            int portCount = Byte.toUnsignedInt(ibv_device_attr.phys_port_cnt(attr));
            List<PortAttributes> ports = new ArrayList<>();
            int gidSlots = 0;
            for (int p = 1; p <= portCount; p++) {
                PortAttributes pa = queryPortAttributes(arena, p);
                ports.add(pa);
                gidSlots += pa.gidTableLength;
            }
            List<PortGid> gids = queryGidTable(arena, gidSlots);
            List<PortInfo> portInfos = new ArrayList<>();
            for (PortAttributes pa : ports) {
                portInfos.add(pa.toPortInfo(gids.stream().filter(g -> g.port() == pa.number())
                        .map(PortGid::entry).sorted(Comparator.comparingInt(GidEntry::index)).toList()));
            }
            return new DeviceInfo(deviceName, formatGuid(ibv_device_attr.node_guid(attr)),
                    ibv_device_attr.fw_ver(attr).getString(0), ibv_device_attr.vendor_id(attr),
                    ibv_device_attr.vendor_part_id(attr), ibv_device_attr.max_qp(attr), ibv_device_attr.max_cqe(attr),
                    ibv_device_attr.max_qp_wr(attr), ibv_device_attr.max_mr_size(attr), portInfos);
        }
    }

    /** A snapshot of one port, with its valid GID entries. */
    public PortInfo queryPort(int port) {
        return query().port(port).orElseThrow(() -> new RdmaUnavailableException(
                "device " + deviceName + " has no port " + port + " (ports are numbered from 1)"));
    }

    /** The device's limit on outstanding RDMA reads and atomics per QP ({@code ibv_device_attr.max_qp_rd_atom}). */
    public int maxOutstandingReads() {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = ibv_device_attr.allocate(arena);
            Calls.check("ibv_query_device(" + deviceName + ")", rdma_h.ibv_query_device(handle, attr));
            return ibv_device_attr.max_qp_rd_atom(attr);
        }
    }

    public ProtectionDomain allocateProtectionDomain() {
        ensureOpen();
        return ProtectionDomain.allocate(this);
    }

    public CompletionChannel createCompletionChannel() {
        ensureOpen();
        return CompletionChannel.create(this);
    }

    /**
     * Creates a completion queue with at least {@code depth} entries.
     *
     * @param channel where completion events are delivered, or null for a polled-only CQ
     */
    public CompletionQueue createCompletionQueue(int depth, CompletionChannel channel) {
        ensureOpen();
        return CompletionQueue.create(this, depth, channel);
    }

    @Override
    protected void destroy() {
        if (owned) {
            Calls.check("ibv_close_device(" + deviceName + ")", rdma_h.ibv_close_device(handle));
        }
    }

    @Override
    protected String describe() {
        return "Context " + deviceName;
    }

    private record PortAttributes(int number, int state, int maxMtu, int activeMtu, int linkLayer, int lid,
                                  int width, int speed, int gidTableLength) {
        PortInfo toPortInfo(List<GidEntry> gids) {
            return new PortInfo(number, PortState.fromNative(state), Mtu.fromNative(maxMtu), Mtu.fromNative(activeMtu),
                    LinkLayer.fromNative(linkLayer), lid, width, speed, gidTableLength, gids);
        }
    }

    private PortAttributes queryPortAttributes(Arena arena, int port) {
        MemorySegment pa = ibv_port_attr.allocate(arena);
        Calls.check("ibv_query_port(" + deviceName + ", " + port + ")", rdma_h.ibv_query_port(handle, (byte) port, pa));
        return new PortAttributes(port, ibv_port_attr.state(pa), ibv_port_attr.max_mtu(pa), ibv_port_attr.active_mtu(pa),
                Byte.toUnsignedInt(ibv_port_attr.link_layer(pa)), Short.toUnsignedInt(ibv_port_attr.lid(pa)),
                Byte.toUnsignedInt(ibv_port_attr.active_width(pa)), Byte.toUnsignedInt(ibv_port_attr.active_speed(pa)),
                ibv_port_attr.gid_tbl_len(pa));
    }

    private record PortGid(int port, GidEntry entry) {
    }

    private List<PortGid> queryGidTable(Arena arena, int slots) {
        if (slots == 0) {
            return List.of();
        }
        MemorySegment entries = ibv_gid_entry.allocateArray(slots, arena);
        long n = rdma_h._ibv_query_gid_table(handle, entries, slots, 0, ibv_gid_entry.sizeof());
        if (n < 0) {
            throw RdmaException.of("ibv_query_gid_table(" + deviceName + ")", (int) -n);
        }
        List<PortGid> result = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            MemorySegment e = ibv_gid_entry.asSlice(entries, i);
            byte[] raw = NativeBytes.toArray(ibv_gid.raw(ibv_gid_entry.gid(e)));
            int ifindex = ibv_gid_entry.ndev_ifindex(e);
            GidEntry entry = new GidEntry(ibv_gid_entry.gid_index(e), Gid.of(raw),
                    GidType.fromNative(ibv_gid_entry.gid_type(e)), netdevName(ifindex), ifindex);
            result.add(new PortGid(ibv_gid_entry.port_num(e), entry));
        }
        return result;
    }

    private static Optional<String> netdevName(int ifindex) {
        if (ifindex <= 0) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(NetworkInterface.getByIndex(ifindex)).map(NetworkInterface::getName);
        } catch (SocketException e) {
            return Optional.of("ifindex " + ifindex);
        }
    }

    private static String formatGuid(long nativeOrder) {
        long be = Long.reverseBytes(nativeOrder);
        return String.format("%04x:%04x:%04x:%04x", (be >>> 48) & 0xffff, (be >>> 32) & 0xffff, (be >>> 16) & 0xffff,
                be & 0xffff);
    }
}
