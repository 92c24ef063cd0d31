package koala.scheduler;

import java.util.List;
import koala.placement.PlacementReason;
import koala.scheduler.metrics.GridEvents.GridReason;

/**
 * Why a grow placed as it comes got no node: a value, with the words the runner and {@code koala status}
 * show ({@link #text}) and the kind the metrics count it by ({@link #kind}). A grow never waits in the
 * queue: the runner decides what a refusal means.
 */
sealed interface GrowRefusal {
    /** The refusal in a user's words. */
    String text();

    /** What {@code koala_grows_total} counts it as: a {@link GridReason} or the arbiter's or placement's kind. */
    Enum<?> kind();

    /** A grow pinned to a site of the grid that cannot be reached now (its link or agent down): not bad input. */
    record SiteUnreachable(String site) implements GrowRefusal {
        @Override
        public String text() {
            return "site " + site + " cannot be reached now (no word from its agent): nothing placed there until it can";
        }

        @Override
        public Enum<?> kind() {
            return GridReason.SITE_UNREACHABLE;
        }
    }

    /**
     * None of the sites asked for ({@code sites}) is on {@code network}, the one the instance's nodes are on: a
     * remote site's nodes reach only each other, so an instance stays on one network.
     */
    record OtherNetwork(List<String> sites, String network) implements GrowRefusal {
        @Override
        public String text() {
            return String.join(", ", sites) + (sites.size() == 1 ? "'s nodes cannot" : " nodes cannot")
                    + " reach this instance's, which are on network " + network + (network.equals("grid")
                    ? " (the grid's own)" : " (site " + network + "'s private one)")
                    + ": a site on another network cannot join it";
        }

        @Override
        public Enum<?> kind() {
            return GridReason.OTHER_NETWORK;
        }
    }

    /**
     * No idle node on the sites asked for ({@code site} alone when the grow was pinned to it, null for any);
     * {@code reaching} names the sites whose nodes reach the instance's when that leaves some asked for out
     * (null when it leaves none out), {@code closed} the single-tenant ones among them closed to its owner.
     */
    record GridFull(String site, List<String> reaching, List<String> closed) implements GrowRefusal {
        private static final String WORDS = "grid full: no idle node";

        /** Whether a grow's answer says this. */
        static boolean said(String reason) {
            return reason != null && reason.startsWith(WORDS);
        }

        @Override
        public String text() {
            return WORDS + (site == null ? "" : " on " + site)
                    + (reaching == null ? "" : " on the sites whose nodes reach this instance's ("
                    + String.join(", ", reaching) + ")") + GridNow.singleTenantNote(closed);
        }

        @Override
        public Enum<?> kind() {
            return koala.arbitration.ShareReason.Kind.GRID_FULL;
        }
    }

    /**
     * The allocation's placement policy placed none of the idle nodes it was given: its reason (a policy that
     * places a flexible component whole, as Worst-Fit does, finds no site with room for all of it).
     */
    record NotPlaced(PlacementReason reason) implements GrowRefusal {
        @Override
        public String text() {
            return reason.text();
        }

        @Override
        public Enum<?> kind() {
            return reason.kind();
        }
    }

    /** No site may take one more of the instance's nodes keeping the hard placement constraints. */
    record Constraint(String why) implements GrowRefusal {
        /** The hard constraint's refusal, or, when the constraints named none, that no site may take one. */
        static Constraint of(PlacementReason limit) {
            return new Constraint(limit == null ? "no site may take one more keeping the hard constraints" : limit.text());
        }

        @Override
        public String text() {
            return "placement constraints: " + why;
        }

        @Override
        public Enum<?> kind() {
            return PlacementReason.Kind.HARD_CONSTRAINT;
        }
    }
}
