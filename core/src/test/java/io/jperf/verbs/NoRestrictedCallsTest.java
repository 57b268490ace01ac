package io.jperf.verbs;

import io.jperf.ffi.NativeMemory;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.lang.classfile.constantpool.LoadableConstantEntry;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.MethodHandleEntry;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.reflect.AccessFlag;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * io.jperf.core makes no restricted call of its own: every {@code reinterpret}, downcall/upcall link and
 * library load is in io.jperf.ffi ({@link NativeMemory}, {@code Libc}, {@code InlineVerbs}, the generated
 * bindings), the only module that needs {@code --enable-native-access}. Scans core's compiled classes with
 * the class-file API for invocations of (and method handles to) JDK 25's restricted methods, and for JNI
 * {@code native} methods, which are restricted too.
 */
class NoRestrictedCallsTest {
    /** JDK 25's restricted methods (the "Restricted methods" list of java.lang.foreign), by owner. */
    private static final Map<String, Set<String>> RESTRICTED = Map.of(
            "java/lang/foreign/MemorySegment", Set.of("reinterpret"),
            "java/lang/foreign/Linker", Set.of("downcallHandle", "upcallStub"),
            "java/lang/foreign/SymbolLookup", Set.of("libraryLookup"),
            "java/lang/foreign/AddressLayout", Set.of("withTargetLayout"),
            "java/lang/System", Set.of("load", "loadLibrary"),
            "java/lang/Runtime", Set.of("load", "loadLibrary"),
            "java/lang/ModuleLayer$Controller", Set.of("enableNativeAccess"));

    @Test
    void coreCallsNoRestrictedMethod() throws IOException {
        Path classes = classesOf(Rdma.class);
        List<Path> files = classFiles(classes);
        // the scan saw core: its packages, not an empty or wrong directory
        assertTrue(files.size() > 100 && files.contains(classes.resolve("io/jperf/verbs/Rdma.class"))
                && files.contains(classes.resolve("io/jperf/datapath/RawMemory.class")), classes + ": " + files.size());
        List<String> offenders = new ArrayList<>();
        for (Path file : files) {
            offenders.addAll(restrictedUses(Files.readAllBytes(file)));
        }
        assertEquals(List.of(), offenders, "core (" + classes + ") calls restricted methods; move each into a"
                + " small function of io.jperf.ffi (e.g. NativeMemory) and call that");
    }

    /** The scan finds what it looks for: io.jperf.ffi's NativeMemory is where core's reinterpret calls went. */
    @Test
    void theScanFindsTheRestrictedCallsOfNativeMemory() throws IOException {
        byte[] bytes;
        try (var in = NativeMemory.class.getResourceAsStream("NativeMemory.class")) {
            bytes = in.readAllBytes();
        }
        List<String> uses = restrictedUses(bytes);
        assertTrue(uses.contains("io.jperf.ffi.NativeMemory.cString calls java.lang.foreign.MemorySegment.reinterpret"),
                uses.toString());
        assertTrue(uses.contains("io.jperf.ffi.NativeMemory.<clinit> calls java.lang.foreign.MemorySegment.reinterpret"),
                uses.toString());
        assertEquals(5, uses.size(), uses.toString());
    }

    /** Each restricted use in one class file, as {@code class.method calls owner.name}. */
    static List<String> restrictedUses(byte[] classFile) {
        ClassModel model = ClassFile.of().parse(classFile);
        String className = model.thisClass().asInternalName().replace('/', '.');
        List<String> uses = new ArrayList<>();
        for (MethodModel method : model.methods()) {
            String where = className + "." + method.methodName().stringValue();
            if (method.flags().has(AccessFlag.NATIVE)) {
                uses.add(where + " is a JNI native method");
            }
            method.code().ifPresent(code -> {
                for (CodeElement element : code) {
                    switch (element) {
                        case InvokeInstruction invoke -> check(where, "calls", invoke.method(), uses);
                        case InvokeDynamicInstruction indy -> {
                            // a method reference (SomeSegment::reinterpret) is a bootstrap argument
                            for (var arg : indy.invokedynamic().bootstrap().arguments()) {
                                checkHandle(where, arg, uses);
                            }
                        }
                        case ConstantInstruction.LoadConstantInstruction ldc -> checkHandle(where, ldc.constantEntry(), uses);
                        default -> {
                        }
                    }
                }
            });
        }
        return uses;
    }

    private static void checkHandle(String where, LoadableConstantEntry entry, List<String> uses) {
        if (entry instanceof MethodHandleEntry handle) {
            check(where, "makes a method handle to", handle.reference(), uses);
        }
    }

    private static void check(String where, String verb, MemberRefEntry target, List<String> uses) {
        Set<String> names = RESTRICTED.get(target.owner().asInternalName());
        if (names != null && names.contains(target.name().stringValue())) {
            uses.add(where + " " + verb + " " + target.owner().asInternalName().replace('/', '.') + "."
                    + target.name().stringValue());
        }
    }

    private static Path classesOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> classFiles(Path root) throws IOException {
        assertTrue(Files.isDirectory(root), root + " is not a classes directory (run from Maven's target/classes)");
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
    }
}
