package koala.scheduler.claiming;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which of a host's GPU devices a node gets. SGE counts a host's GPUs (the consumable {@code gpu})
 * but does not say which device a job got; KOALA hands each node its own, from the devices its
 * books give no other node on the host, so two nodes never share one.
 */
public final class GpuDevices {
    private GpuDevices() {
    }

    /**
     * The lowest {@code n} of {@code host}'s devices not in {@code taken}, or null when fewer than
     * {@code n} are left (the books give them to other nodes: this one waits for them).
     */
    public static List<Integer> choose(List<Integer> host, Collection<Integer> taken, int n) {
        Set<Integer> left = new TreeSet<>(host);
        left.removeAll(taken);
        if (left.size() < n) {
            return null;
        }
        return new ArrayList<>(left).subList(0, n);
    }
}
