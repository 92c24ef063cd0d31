package koala.provisioning;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The explicit clock and small builders the worked examples share. All times are UTC on 1 May 2024. */
final class Fixtures {
    /** 10:00:00. */
    static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

    private Fixtures() {
    }

    /** T0 plus that many seconds. */
    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    static ProvisioningSettings settings(PolicyKind policy, int initialWorkers, long tIdleSeconds) {
        return ProvisioningSettings.defaults(policy, initialWorkers).asLayer()
                .withTIdle(IdleTime.fixed(Duration.ofSeconds(tIdleSeconds))).toSettings();
    }

    /** n busy workers b1..bn at that CPU utilization. */
    static List<Worker> busy(int n, double cpu) {
        List<Worker> workers = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            workers.add(Worker.busy("b" + i, cpu));
        }
        return workers;
    }

    static WorkerLayer layer(List<Worker> workers, Worker... more) {
        List<Worker> all = new ArrayList<>(workers);
        all.addAll(List.of(more));
        return WorkerLayer.of(all);
    }
}
