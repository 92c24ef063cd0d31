package koala.testbed;

/** One cell of the testbed: its name, size (one slot stands for one node) and ports. */
public record CellPlan(String name, int slots, int qmasterPort, int execdPort) {
    public String queue() {
        return name + ".q";
    }

    /**
     * The cell's own range of additional group ids. SGE tags each job's processes with one and, when
     * the job ends, kills every process carrying it; cells on one machine sharing SGE's default
     * range would kill each other's jobs.
     */
    public String gidRange() {
        int first = 20000 + 1000 * ((qmasterPort - TestbedPlan.FIRST_PORT) / 2);
        return first + "-" + (first + 999);
    }
}
