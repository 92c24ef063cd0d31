package koala.testbed;

import java.util.ArrayList;
import java.util.List;

/**
 * One cell of the testbed: an independent SGE cluster with a head node (its qmaster) and
 * {@code nodes} compute nodes, each a host of its own running one execd with
 * {@code slotsPerNode} slots. A remote cell is reached only by SSH to its head node; its compute
 * nodes sit on a network of their own that only the head node joins, as on a real cluster whose
 * nodes have private addresses.
 *
 * @param index        the cell's number: {@code fs<index>}, its ports and addresses derive from it
 */
public record CellPlan(String name, int index, int nodes, int slotsPerNode, int qmasterPort, int execdPort,
                       boolean remote) {
    public String queue() {
        return name + ".q";
    }

    public String head() {
        return name + "-head";
    }

    /** Compute node {@code i}, counted from 1. */
    public String node(int i) {
        return name + "-n" + i;
    }

    public List<String> nodeNames() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            names.add(node(i));
        }
        return names;
    }

    public int slots() {
        return nodes * slotsPerNode;
    }

    /**
     * The additional group ids of compute node {@code i}. SGE tags each job's processes with one
     * and, when the job ends, kills every process of the machine carrying it; the testbed's
     * execds share one kernel, so each gets a range of its own (100 ids, far more than its jobs).
     */
    public String gidRange(int i) {
        int first = 100000 + 30000 * index + 100 * i;
        return first + "-" + (first + 99);
    }

    /** The cell's default range (its hosts each have their own, {@link #gidRange(int)}). */
    public String gidRange() {
        return gidRange(0);
    }
}
