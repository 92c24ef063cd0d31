package koala.scheduler.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import koala.scheduler.accounting.UsageTotals;

/**
 * What each running framework instance has been granted so far (the figures its usage record will
 * have, so far), as accounting last told it: an immutable map swapped in each round, rendered on the
 * scraping thread. An instance that ended leaves these series; its record adds to its owner's
 * {@code koala_usage_*} counters instead.
 */
final class UsageCollector implements MultiCollector {
    private final Supplier<Map<Long, UsageTotals>> latest;

    UsageCollector(Supplier<Map<Long, UsageTotals>> latest) {
        this.latest = latest;
    }

    @Override
    public MetricSnapshots collect() {
        Map<Long, UsageTotals> instances = new TreeMap<>(latest.get());
        List<MetricSnapshot> out = new ArrayList<>();
        out.add(counter("koala_instance_node_seconds", "Node-seconds a running framework instance has been granted "
                + "so far", instances, UsageTotals::nodeSeconds));
        out.add(counter("koala_instance_core_seconds", "Core-seconds a running framework instance has been granted "
                + "so far", instances, UsageTotals::coreSeconds));
        out.add(counter("koala_instance_memory_gb_seconds", "GB-seconds of memory a running framework instance has "
                + "been granted so far", instances, UsageTotals::memoryGbSeconds));
        out.add(counter("koala_instance_gpu_seconds", "GPU-seconds a running framework instance has been granted "
                + "so far", instances, UsageTotals::gpuSeconds));
        return new MetricSnapshots(out);
    }

    private static CounterSnapshot counter(String name, String help, Map<Long, UsageTotals> instances,
                                           ToDoubleFunction<UsageTotals> figure) {
        CounterSnapshot.Builder c = CounterSnapshot.builder().name(name).help(help);
        instances.forEach((id, t) -> c.dataPoint(CounterDataPointSnapshot.builder()
                .labels(Labels.of(ReadingCollector.INSTANCE, Long.toString(id))).value(figure.applyAsDouble(t)).build()));
        return c.build();
    }
}
