package io.jperf.matrix;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SlurmHostlistTest {

    @Test
    void plainNamesAndCommaLists() {
        assertEquals(List.of("a"), SlurmHostlist.expand("a"));
        assertEquals(List.of("a", "b1", "c.example"), SlurmHostlist.expand("a,b1,c.example"));
    }

    @Test
    void zeroPaddedRangesAndSingles() {
        assertEquals(List.of("node001", "node002", "node003", "node004", "node007"),
                SlurmHostlist.expand("node[001-004,007]"));
        assertEquals(List.of("n8", "n9", "n10"), SlurmHostlist.expand("n[8-10]"));
        assertEquals(List.of("n08", "n09", "n10"), SlurmHostlist.expand("n[08-10]"));
        assertEquals(List.of("n0", "n1"), SlurmHostlist.expand("n[0-1]"));
    }

    @Test
    void rangeInsideTheName() {
        assertEquals(List.of("gpu-1-ib", "gpu-2-ib"), SlurmHostlist.expand("gpu-[1-2]-ib"));
    }

    @Test
    void severalRangesInOneNameMultiplyLeftmostSlowest() {
        assertEquals(List.of("r1-n01", "r1-n02", "r2-n01", "r2-n02"), SlurmHostlist.expand("r[1-2]-n[01-02]"));
    }

    @Test
    void commaListOfGroupsWithBrackets() {
        assertEquals(List.of("a1", "a2", "b", "c03", "c04", "c09"), SlurmHostlist.expand("a[1-2],b,c[03-04,09]"));
    }

    @Test
    void malformedListsAreNamed() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("n[1-2"))
                .getMessage().contains("without ']'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("n[4-2]"))
                .getMessage().contains("backwards"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("n[a-b]"))
                .getMessage().contains("'a-b'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("a,,b"))
                .getMessage().contains("empty"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("n[]"))
                .getMessage().contains("empty brackets"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("n[1-99999999]"))
                .getMessage().contains("more than"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SlurmHostlist.expand("bad host"))
                .getMessage().contains("not a host name"));
    }
}
