package koala.placement;

import java.util.Arrays;
import java.util.List;

/** Short builders for the worked examples. */
final class Fixtures {
    /** The grid of the worked examples: fs0 16 nodes / 10 idle, fs1 8 / 8, fs2 8 / 3. */
    static final GridView EXAMPLE = grid(site("fs0", 16, 10), site("fs1", 8, 8), site("fs2", 8, 3));

    private Fixtures() {
    }

    static SiteView site(String name, int total, int idle) {
        return new SiteView(name, total, idle);
    }

    static GridView grid(SiteView... sites) {
        return new GridView(List.of(sites), FileLocations.NONE);
    }

    static GridView grid(FileLocations files, SiteView... sites) {
        return new GridView(List.of(sites), files);
    }

    /** A non-fixed component. */
    static ComponentNeed free(int index, int nodes, String... inputFiles) {
        return new ComponentNeed(index, nodes, null, List.of(inputFiles));
    }

    static ComponentNeed fixed(int index, int nodes, String site) {
        return new ComponentNeed(index, nodes, site, List.of());
    }

    /** A job of non-fixed components of these sizes, component i of sizes[i] nodes. */
    static JobNeed rigid(int... sizes) {
        ComponentNeed[] components = new ComponentNeed[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            components[i] = free(i, sizes[i]);
        }
        return job(components);
    }

    static JobNeed job(ComponentNeed... components) {
        return new JobNeed("j", Arrays.asList(components), false);
    }

    static JobNeed flexible(int nodes) {
        return new JobNeed("f", List.of(free(0, nodes)), true);
    }

    static Assignment at(int component, String site, int nodes) {
        return new Assignment(component, site, nodes);
    }

    static PlacementDecision placed(Assignment... assignments) {
        return new PlacementDecision.Placed(List.of(assignments));
    }

    static PlacementDecision notPlaced(PlacementReason... reasons) {
        return new PlacementDecision.NotPlaced(List.of(reasons));
    }

    static PlacementReason because(int component, PlacementReason.Kind kind, String text) {
        return new PlacementReason(component, kind, text);
    }
}
