#!/usr/bin/env python3
"""Start-up time of jperf's quick commands against a bare JVM's hello world (README, "Start-up").

    python3 bench/startup-time.py [N] [LABEL=COMMAND ...]

Compiles a hello world with the JDK the launcher finds first (JAVA_HOME, else the Temurin 25 path),
then runs every command N times (default 21), alternating (hello, help, devices, hello, ...) so that
a load that comes and goes on a shared host hits each alike. Output goes to /dev/null. Prints the
load average before and after and, per command, the median wall time, its ratio to the hello
world's, the median CPU time (user + sys of the process and its children) and the exit codes seen.
Without commands: ./jperf --help and ./jperf devices from the repository root.
"""
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
n = int(sys.argv[1]) if len(sys.argv) > 1 else 21
jdk = os.environ.get("JAVA_HOME") or "/usr/lib/jvm/temurin-25-jdk-amd64"
with tempfile.TemporaryDirectory() as hello_dir:
    with open(os.path.join(hello_dir, "Hello.java"), "w") as f:
        f.write('public class Hello { public static void main(String[] a) { System.out.println("Hello, world"); } }\n')
    subprocess.run([os.path.join(jdk, "bin", "javac"), "-d", hello_dir, os.path.join(hello_dir, "Hello.java")], check=True)
    specs = [("hello", f"{jdk}/bin/java -cp {hello_dir} Hello")]
    specs += [tuple(a.split("=", 1)) for a in sys.argv[2:]] or [
        ("help", f"{root}/jperf --help"), ("devices", f"{root}/jperf devices")]
    wall = {label: [] for label, _ in specs}
    cpu = {label: [] for label, _ in specs}
    codes = {label: set() for label, _ in specs}
    load_before = open("/proc/loadavg").read().split()[:3]
    devnull = os.open(os.devnull, os.O_WRONLY)
    for _ in range(n):
        for label, command in specs:
            argv = shlex.split(command)
            start = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                try:
                    os.execvp(argv[0], argv)
                finally:
                    os._exit(127)
            _, status, usage = os.wait4(pid, 0)
            wall[label].append((time.perf_counter() - start) * 1000)
            cpu[label].append((usage.ru_utime + usage.ru_stime) * 1000)
            codes[label].add(os.waitstatus_to_exitcode(status))
    load_after = open("/proc/loadavg").read().split()[:3]
print(f"N={n} each, alternating; load average before {' '.join(load_before)}, after {' '.join(load_after)}")
hello = statistics.median(wall["hello"])
for label, command in specs:
    w = statistics.median(wall[label])
    print(f"{label:10s} wall {w:5.0f} ms ({w / hello:4.2f}x hello)  cpu {statistics.median(cpu[label]):5.0f} ms"
          f"  exit {sorted(codes[label])}  [{command}]")
