package koala.testbed;

/** One cell of the testbed: its name, size (one slot stands for one node) and ports. */
public record CellPlan(String name, int slots, int qmasterPort, int execdPort) {
    public String queue() {
        return name + ".q";
    }
}
