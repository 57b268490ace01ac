package io.jperf.sweep;

import io.jperf.options.OptionsException;
import io.jperf.options.SizeParser;
import io.jperf.path.Addr;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a sweep can vary, in the order the sweep nests them (the first varies slowest). Each
 * dimension has the name the reports use, the command-line option that sets it, and the rules
 * for its values: {@link #canonical(String)} checks one value and returns the text the reports
 * show, so that {@code 64K} and {@code 65536} are the same size. Stateless and thread-safe.
 */
public enum SweepDimension {
    /**
     * A rail: this host's device and the peer's RDMA address on the same rail, {@code DEV>ADDR}
     * ({@code DEV=ADDR} accepted). Sets {@code -d} and the address {@code jperf serve} uses.
     */
    RAIL("rail", "--rails", "DEV=PEER_ADDR"),
    /** A source address: {@code --bind_source_ip}; the device and GID that carry it, when found here. */
    SOURCE("source", "--sources", "ADDR"),
    /** A GID index, {@code -x}. */
    GID("gid", "--gid-indexes", "INDEX"),
    /** RDMA CM, {@code -R}: {@code off} or {@code on}. */
    RDMA_CM("rdma_cm", "--rdma-cm", "off|on"),
    /** A traffic class, {@code --tclass}, 0..255. */
    TCLASS("tclass", "--tclasses", "TC"),
    /** A message size, {@code -s}, with K/M/G suffixes. */
    SIZE("size", "--sizes", "BYTES");

    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    private final String key;
    private final String option;
    private final String valueLabel;

    SweepDimension(String key, String option, String valueLabel) {
        this.key = key;
        this.option = option;
        this.valueLabel = valueLabel;
    }

    /** The name in reports and JSON, e.g. {@code rdma_cm}. */
    public String key() {
        return key;
    }

    /** The command-line option that lists its values, e.g. {@code --rdma-cm}. */
    public String option() {
        return option;
    }

    /** How one value is written, e.g. {@code DEV=PEER_ADDR}. */
    public String valueLabel() {
        return valueLabel;
    }

    /**
     * Checks one value and returns its canonical text: {@code rxe1>10.20.1.2}, {@code 10.20.0.1},
     * {@code 3}, {@code on}, {@code 106}, {@code 64K}.
     *
     * @throws IllegalArgumentException naming the option, the value and what is expected
     */
    public String canonical(String text) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            throw bad("an empty value", "");
        }
        return switch (this) {
            case RAIL -> rail(t);
            case SOURCE -> address(t, "a source address");
            case GID -> Integer.toString(number(t, 0, 255, "GID index"));
            case RDMA_CM -> onOff(t);
            case TCLASS -> Integer.toString(number(t, 0, 255, "traffic class"));
            case SIZE -> size(t);
        };
    }

    /** The device of a canonical rail value. */
    static String railDevice(String rail) {
        return rail.substring(0, rail.indexOf('>'));
    }

    /** The peer address of a canonical rail value. */
    static String railPeer(String rail) {
        return rail.substring(rail.indexOf('>') + 1);
    }

    /** An IP address literal (never a name lookup) as {@code ip} prints it. */
    static InetAddress literal(String text) {
        try {
            if (IPV4.matcher(text).matches() || text.indexOf(':') >= 0) {
                return InetAddress.getByName(text.indexOf(':') >= 0 && !text.startsWith("[") ? "[" + text + "]" : text);
            }
        } catch (UnknownHostException e) {
            // not a literal: fall through
        }
        return null;
    }

    private String rail(String t) {
        int sep = t.indexOf('>');
        if (sep < 0) {
            sep = t.indexOf('=');
        }
        if (sep <= 0 || sep == t.length() - 1) {
            throw bad("'" + t + "'", ": expected DEV=PEER_ADDR, e.g. rxe1=10.20.1.2 (this host's device and the"
                    + " peer's RDMA address on that rail)");
        }
        String device = t.substring(0, sep).strip();
        if (!DEVICE.matcher(device).matches()) {
            throw bad("'" + t + "'", ": '" + device + "' is not a device name (see `jperf devices`)");
        }
        return device + ">" + address(t.substring(sep + 1).strip(), "the peer's RDMA address");
    }

    private String address(String t, String what) {
        InetAddress a = literal(t);
        if (a == null) {
            throw bad("'" + t + "'", ": " + what + " must be an IPv4 or IPv6 address literal");
        }
        return Addr.text(a);
    }

    private int number(String t, int min, int max, String what) {
        int v;
        try {
            v = Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw bad("'" + t + "'", ": expected a " + what + " " + min + ".." + max);
        }
        if (v < min || v > max) {
            throw bad("'" + t + "'", ": a " + what + " is " + min + ".." + max);
        }
        return v;
    }

    private String onOff(String t) {
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> "on";
            case "off", "false", "no", "0" -> "off";
            default -> throw bad("'" + t + "'", ": expected off or on");
        };
    }

    private String size(String t) {
        long bytes;
        try {
            bytes = SizeParser.parse(t);
        } catch (OptionsException e) {
            throw bad("'" + t + "'", ": expected a number of bytes with an optional K, M or G suffix (x1024),"
                    + " e.g. 2,64K,1M");
        }
        return SizeParser.format(bytes);
    }

    private IllegalArgumentException bad(String value, String why) {
        return new IllegalArgumentException(option + ": " + value + " is not valid" + why);
    }
}
