package koala.testbed;

import java.util.ArrayList;
import java.util.List;

/**
 * Which cells the testbed runs. Cells are named like DAS-4's clusters ({@code fs0}, {@code fs1},
 * ...); cell {@code i} listens on qmaster port {@code 6460 + 2i} and execd port {@code 6461 + 2i},
 * clear of the default cell's 6444/6445. By default the first cell is the largest, as on DAS-4.
 */
public record TestbedPlan(List<CellPlan> cells) {
    public static final int DEFAULT_CLUSTERS = 3;
    public static final int FIRST_PORT = 6460;
    public static final int MAX_CLUSTERS = 16;

    public TestbedPlan {
        cells = List.copyOf(cells);
    }

    /**
     * @param clusters how many cells, or null to take it from {@code slots} (else 3)
     * @param slots    slots per cell, or empty for 16 on the first cell and 8 on the others
     */
    public static TestbedPlan of(Integer clusters, List<Integer> slots) {
        int n = clusters != null ? clusters : slots.isEmpty() ? DEFAULT_CLUSTERS : slots.size();
        if (n < 1 || n > MAX_CLUSTERS) {
            throw new IllegalArgumentException("--clusters " + n + ": choose 1.." + MAX_CLUSTERS);
        }
        if (!slots.isEmpty() && slots.size() != n) {
            throw new IllegalArgumentException("--slots gives " + slots.size() + " sizes for " + n + " clusters");
        }
        List<CellPlan> cells = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int size = slots.isEmpty() ? (i == 0 ? 16 : 8) : slots.get(i);
            if (size < 1 || size > 1024) {
                throw new IllegalArgumentException("--slots " + size + " for fs" + i + ": choose 1..1024");
            }
            cells.add(new CellPlan("fs" + i, size, FIRST_PORT + 2 * i, FIRST_PORT + 2 * i + 1));
        }
        return new TestbedPlan(cells);
    }
}
