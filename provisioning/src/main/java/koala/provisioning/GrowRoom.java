package koala.provisioning;

import java.util.ArrayList;
import java.util.List;

/**
 * How many of the workers wanted may be added now: no more than F_max less the workers running
 * and starting, and no more than the grid's free nodes when the runner knows them. When fewer
 * than wanted are granted, {@code limits} says which bound(s) set the grant:
 * "F_max 20 leaves room for 4", "F_max 20 reached (20 workers)", "the grid has 3 free nodes",
 * "the grid has no free nodes" — both, joined by "and", when both are equally tight; {@code bound}
 * is AT_FMAX when F_max set the grant (first when both did), else GRID_FULL.
 */
record GrowRoom(int wanted, int granted, String limits, WorkerDecision.Kind bound) {

    static GrowRoom of(WorkerLayer layer, int fMax, int wanted) {
        int room = Math.max(0, fMax - layer.size());
        int granted = Math.min(wanted, room);
        if (layer.gridFreeNodes().isPresent()) {
            granted = Math.min(granted, layer.gridFreeNodes().getAsInt());
        }
        List<String> limits = new ArrayList<>();
        if (granted < wanted && room == granted) {
            limits.add(room == 0 ? "F_max " + fMax + " reached (" + layer.sizeText() + ")"
                    : "F_max " + fMax + " leaves room for " + room);
        }
        int free = layer.gridFreeNodes().orElse(Integer.MAX_VALUE);
        if (granted < wanted && free == granted) {
            limits.add(free == 0 ? "the grid has no free nodes" : "the grid has " + Texts.count(free, "free node"));
        }
        WorkerDecision.Kind bound = granted < wanted && room == granted ? WorkerDecision.Kind.AT_FMAX
                : WorkerDecision.Kind.GRID_FULL;
        return new GrowRoom(wanted, granted, String.join(" and ", limits), bound);
    }

    boolean all() {
        return granted == wanted;
    }

    boolean none() {
        return granted == 0;
    }
}
