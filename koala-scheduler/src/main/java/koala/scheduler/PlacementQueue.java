package koala.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * KOALA's placement queue: jobs waiting for enough idle nodes, in two priorities. Each placement
 * round tries the high-priority jobs first, then the low, each in order of arrival; a job that
 * cannot be placed does not block the ones behind it.
 */
final class PlacementQueue {
    private final Set<Long> high = new LinkedHashSet<>();
    private final Set<Long> low = new LinkedHashSet<>();

    void add(long job, String priority) {
        ("high".equals(priority) ? high : low).add(job);
    }

    void remove(long job) {
        high.remove(job);
        low.remove(job);
    }

    /** The jobs in the order a round tries them. */
    List<Long> inOrder() {
        List<Long> order = new ArrayList<>(high);
        order.addAll(low);
        return order;
    }

    int size() {
        return high.size() + low.size();
    }

    /** Jobs waiting in the high priority. */
    int highSize() {
        return high.size();
    }

    /** Jobs waiting in the low priority. */
    int lowSize() {
        return low.size();
    }
}
