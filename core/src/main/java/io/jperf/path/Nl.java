package io.jperf.path;

/**
 * Netlink and rtnetlink constants (linux/netlink.h, linux/rtnetlink.h, linux/fib_rules.h,
 * linux/if_link.h, linux/if_addr.h). Values are part of the kernel ABI and never change.
 */
final class Nl {
    private Nl() {
    }

    static final int AF_INET = 2;
    static final int AF_INET6 = 10;

    // struct nlmsghdr: u32 len, u16 type, u16 flags, u32 seq, u32 pid
    static final int NLMSG_HDRLEN = 16;
    static final int NLMSG_NOOP = 1;
    static final int NLMSG_ERROR = 2;
    static final int NLMSG_DONE = 3;
    static final int NLMSG_OVERRUN = 4;

    static final int NLM_F_REQUEST = 0x1;
    static final int NLM_F_MULTI = 0x2;
    static final int NLM_F_DUMP_INTR = 0x10;
    static final int NLM_F_DUMP = 0x300;
    /** In an NLMSG_ERROR: the echoed request was cut to its header. */
    static final int NLM_F_CAPPED = 0x100;
    /** In an NLMSG_ERROR: extended-ack attributes follow. */
    static final int NLM_F_ACK_TLVS = 0x200;
    static final int NLMSGERR_ATTR_MSG = 1;

    static final int RTM_NEWLINK = 16;
    static final int RTM_GETLINK = 18;
    static final int RTM_NEWADDR = 20;
    static final int RTM_GETADDR = 22;
    static final int RTM_NEWROUTE = 24;
    static final int RTM_GETROUTE = 26;
    static final int RTM_NEWRULE = 32;
    static final int RTM_GETRULE = 34;

    // struct rtmsg (12 bytes): family, dst_len, src_len, tos, table, protocol, scope, type, u32 flags
    static final int RTMSG_LEN = 12;
    static final int RTM_F_LOOKUP_TABLE = 0x1000;
    static final int RTM_F_FIB_MATCH = 0x2000;
    static final int RTA_DST = 1;
    static final int RTA_SRC = 2;
    static final int RTA_OIF = 4;
    static final int RTA_GATEWAY = 5;
    static final int RTA_PRIORITY = 6;
    static final int RTA_PREFSRC = 7;
    static final int RTA_TABLE = 15;

    // struct fib_rule_hdr (12 bytes): family, dst_len, src_len, tos, table, res1, res2, action, u32 flags
    static final int FIB_RULE_HDR_LEN = 12;
    static final int FIB_RULE_INVERT = 0x2;
    static final int FIB_RULE_IIF_DETACHED = 0x8;
    static final int FIB_RULE_OIF_DETACHED = 0x10;
    static final int FRA_DST = 1;
    static final int FRA_SRC = 2;
    static final int FRA_IIFNAME = 3;
    static final int FRA_GOTO = 4;
    static final int FRA_PRIORITY = 6;
    static final int FRA_FWMARK = 10;
    static final int FRA_TUN_ID = 12;
    static final int FRA_SUPPRESS_IFGROUP = 13;
    static final int FRA_SUPPRESS_PREFIXLEN = 14;
    static final int FRA_TABLE = 15;
    static final int FRA_FWMASK = 16;
    static final int FRA_OIFNAME = 17;
    static final int FRA_L3MDEV = 19;
    static final int FRA_UID_RANGE = 20;
    static final int FRA_IP_PROTO = 22;
    static final int FRA_SPORT_RANGE = 23;
    static final int FRA_DPORT_RANGE = 24;

    // struct ifinfomsg (16 bytes): family, pad, u16 type, s32 index, u32 flags, u32 change
    static final int IFINFOMSG_LEN = 16;
    static final int IFLA_IFNAME = 3;
    static final int IFLA_MTU = 4;
    static final int IFLA_OPERSTATE = 16;
    static final int IFLA_LINKINFO = 18;
    static final int IFLA_INFO_KIND = 1;
    static final int IFLA_INFO_DATA = 2;
    static final int IFLA_VLAN_ID = 1;

    // struct ifaddrmsg (8 bytes): family, prefixlen, flags, scope, u32 index
    static final int IFADDRMSG_LEN = 8;
    static final int IFA_ADDRESS = 1;
    static final int IFA_LOCAL = 2;

    /** Attribute type bits (the top two are NLA_F_NESTED and NLA_F_NET_BYTEORDER). */
    static final int NLA_TYPE_MASK = 0x3fff;

    static int align(int n) {
        return (n + 3) & ~3;
    }

    static String messageTypeName(int type) {
        return switch (type) {
            case NLMSG_NOOP -> "NLMSG_NOOP";
            case NLMSG_ERROR -> "NLMSG_ERROR";
            case NLMSG_DONE -> "NLMSG_DONE";
            case NLMSG_OVERRUN -> "NLMSG_OVERRUN";
            case RTM_NEWLINK -> "RTM_NEWLINK";
            case RTM_GETLINK -> "RTM_GETLINK";
            case RTM_NEWADDR -> "RTM_NEWADDR";
            case RTM_GETADDR -> "RTM_GETADDR";
            case RTM_NEWROUTE -> "RTM_NEWROUTE";
            case RTM_GETROUTE -> "RTM_GETROUTE";
            case RTM_NEWRULE -> "RTM_NEWRULE";
            case RTM_GETRULE -> "RTM_GETRULE";
            default -> "type " + type;
        };
    }
}
