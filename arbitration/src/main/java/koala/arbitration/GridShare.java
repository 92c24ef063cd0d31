package koala.arbitration;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The snapshot one arbitration decides on: the grid's free nodes as the information service reports
 * them and every framework instance sharing the grid. The <em>capacity</em> shared out is the free
 * nodes plus the worker nodes the instances hold: local SGE users' jobs (and KOALA's other jobs,
 * and the instances' master and orchestrator nodes) are simply not in it. Their load only lowers
 * the capacity; it is never taken back.
 *
 * @param freeNodes idle nodes of the grid, from the KIS (for instances whose workers are larger than a node
 *                  ({@link Tenant#size()}), the grid's nodes: cores with their memory)
 * @param tenants   the instances, in any order (decisions do not depend on it)
 */
public record GridShare(int freeNodes, List<Tenant> tenants) {

    public GridShare {
        tenants = List.copyOf(tenants);
        if (freeNodes < 0) {
            throw new IllegalArgumentException("free nodes " + freeNodes + " < 0");
        }
        Set<String> ids = new HashSet<>();
        tenants.forEach(t -> {
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("instance " + t.id() + " listed twice");
            }
        });
    }

    /** Nodes shared out between the instances: the free ones and the worker nodes they hold. */
    public int capacity() {
        return freeNodes + tenants.stream().mapToInt(Tenant::heldNodes).sum();
    }

    public Optional<Tenant> tenant(String id) {
        return tenants.stream().filter(t -> t.id().equals(id)).findFirst();
    }
}
