package koala.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class CpuSamplerTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void ticksAreCountedAfterACommandNameWithSpacesAndParentheses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime ...
        String stat = "4242 (my (odd) worker) R 1 4242 4242 0 -1 4194304 120 0 0 0 250 50 30 20 20 0 1 0 100 0 0";
        assertThat(CpuSampler.parseTicks(stat)).isEqualTo(350.0);
    }

    @Test
    void utilizationIsCpuTimeOverWallTimeAsAShareOfTheCores() {
        CpuSampler sampler = new CpuSampler(1, null, 8, InstantSource.fixed(T0));
        // 40 s of wall time on 8 cores is 320 core-seconds; 80 CPU seconds used is 25%
        assertThat(sampler.utilization(new CpuSampler.Sample(T0, 10), new CpuSampler.Sample(T0.plusSeconds(40), 90)))
                .hasValue(25.0);
        assertThat(sampler.utilization(new CpuSampler.Sample(T0, 10), new CpuSampler.Sample(T0, 20))).isEmpty();
    }

    @Test
    void aBusyProcessTreeShowsItsCpuAndAnIdleOneShowsNone() throws Exception {
        Process busy = new ProcessBuilder("/bin/sh", "-c", "sh -c 'while :; do :; done' & wait").start();
        Process idle = new ProcessBuilder("/bin/sleep", "60").start();
        try {
            CpuSampler busyTree = new CpuSampler(busy.pid(), java.nio.file.Path.of("/proc"), 1, InstantSource.system());
            CpuSampler idleTree = new CpuSampler(idle.pid(), java.nio.file.Path.of("/proc"), 1, InstantSource.system());
            CpuSampler.Sample busyStart = busyTree.sample();
            CpuSampler.Sample idleStart = idleTree.sample();
            // the looping grandchild is counted: wait until it has burnt half a CPU second
            AtomicReference<CpuSampler.Sample> busyEnd = new AtomicReference<>();
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
                busyEnd.set(busyTree.sample());
                return busyEnd.get().cpuSeconds() - busyStart.cpuSeconds() >= 0.5;
            });
            CpuSampler.Sample idleEnd = idleTree.sample();

            // how much depends on what else the machine runs; that it is seen at all is the point here
            assertThat(busyTree.utilization(busyStart, busyEnd.get()).getAsDouble()).isPositive();
            assertThat(idleEnd.cpuSeconds() - idleStart.cpuSeconds()).isLessThan(0.05);
        } finally {
            busy.descendants().forEach(ProcessHandle::destroyForcibly);
            busy.destroyForcibly();
            idle.destroyForcibly();
        }
    }
}
