#!/bin/sh
# Builds jperf's ahead-of-time cache next to the jar (JDK 25: JEP 483/514/515): a training run of
# the commands a person waits for (io.jperf.cli.AotTraining: --help, devices, ...), whose loaded and
# linked classes and method profiles the cache keeps. The jperf launcher uses it when it was made by
# the same JDK on the same CPU (CACHE.jdk records both), and `java -jar jperf.jar` runs as without it.
# Run by Maven in the cli module's package phase, after the jar; skip with -Djperf.aot.skip=true.
# Never fails the build: if the JDK cannot make a cache, it says so and leaves none.
#   build-aot-cache.sh JAVA JAR CACHE
java=${1:?usage: build-aot-cache.sh JAVA JAR CACHE} jar=${2:?} cache=${3:?}
log="$cache.log"
rm -f "$cache" "$cache.jdk" "$log"
start=$(date +%s)
# --enable-native-access as the jar's manifest grants it: the cache records the module options.
if "$java" -XX:AOTCacheOutput="$cache" --enable-native-access=ALL-UNNAMED -cp "$jar" io.jperf.cli.AotTraining \
        >"$log" 2>&1 && [ -s "$cache" ]; then
    javabin=$(readlink -f "$java")
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)"/\1/p' "$(dirname "$(dirname "$javabin")")/release" 2>/dev/null)
    flags=$(sed -n '/^flags/{p;q}' /proc/cpuinfo 2>/dev/null)
    printf '%s %s\n%s\n' "$javabin" "$version" "$flags" > "$cache.jdk"
    echo "jperf-cli: built the AOT cache $cache ($(du -k "$cache" | cut -f1) KiB, $(( $(date +%s) - start )) s)"
else
    rm -f "$cache"
    echo "jperf-cli: no AOT cache: $java could not make one (see $log); jperf starts without it"
fi
exit 0
