package koala.arbitration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import koala.provisioning.Worker;

/** Builders the worked examples share. Times are UTC on 1 May 2024; T0 is 10:00:00. */
final class Grid {
    static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

    private Grid() {
    }

    static Instant at(long seconds) {
        return T0.plusSeconds(seconds);
    }

    /** Instance {@code id} of that weight with {@code busy} busy workers id1..idN at 90% CPU, asking nothing. */
    static Tenant tenant(String id, double weight, int busy) {
        return new Tenant(id, weight, 0, busyWorkers(id, 1, busy), 0, 0, OptionalDouble.empty());
    }

    static List<Worker> busyWorkers(String prefix, int from, int n) {
        List<Worker> workers = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            workers.add(Worker.busy(prefix + i, 90));
        }
        return workers;
    }

    /** The tenant with these workers added. */
    static Tenant with(Tenant t, Worker... more) {
        List<Worker> all = new ArrayList<>(t.workers());
        all.addAll(List.of(more));
        return new Tenant(t.id(), t.weight(), t.minShare(), all, t.starting(), t.asking(), t.performance());
    }

    static Tenant minShare(Tenant t, int nodes) {
        return new Tenant(t.id(), t.weight(), nodes, t.workers(), t.starting(), t.asking(), t.performance());
    }

    static Arbitration decide(Arbiter arbiter, TakeBackBook book, Instant now, int free, Tenant... tenants) {
        return arbiter.decide(new GridShare(free, List.of(tenants)), book, now);
    }
}
