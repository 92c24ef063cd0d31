package koala.scheduler.accounting;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import koala.scheduler.claiming.NodeSpan;

/**
 * Resource-seconds granted (Slurm's TRES-seconds): each node's granted seconds times what it is
 * charged ({@link NodeCharge}), summed. Seconds to the millisecond, as {@link UsageFigures}.
 *
 * <p>Example: 2 nodes of 4 cores and 8G held 90 s each: 2 × 90 × 4 = 720 core-seconds, 2 × 90 × 8 =
 * 1440 GB-seconds, no GPU-seconds. A node of 1 GPU and {@code 512M} held 30 s: 30 GPU-seconds and
 * 30 × 0.5 = 15 GB-seconds.
 *
 * @param coreSeconds     null when a node's cores are not known
 * @param memoryGbSeconds in GB of 1024 MiB
 */
public record ResourceSeconds(Double coreSeconds, double memoryGbSeconds, double gpuSeconds) {
    public static final ResourceSeconds ZERO = new ResourceSeconds(0.0, 0, 0);

    /** What {@code spans} were granted up to {@code end} (a span still open counts up to it). */
    public static ResourceSeconds of(List<NodeSpan> spans, Function<NodeSpan, NodeCharge> charge, Instant end) {
        double cores = 0;
        boolean coresKnown = true;
        double memory = 0;
        double gpus = 0;
        for (NodeSpan s : spans) {
            NodeCharge c = charge.apply(s);
            double held = s.heldSeconds(end);
            if (c.cores() == null) {
                coresKnown = false;
            } else {
                cores += held * c.cores();
            }
            memory += held * c.memoryGb();
            gpus += held * c.gpus();
        }
        return new ResourceSeconds(coresKnown ? UsageFigures.seconds(cores) : null, UsageFigures.seconds(memory),
                UsageFigures.seconds(gpus));
    }
}
