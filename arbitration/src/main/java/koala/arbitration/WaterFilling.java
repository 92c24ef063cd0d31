package koala.arbitration;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import koala.provisioning.NaturalOrder;

/**
 * Weighted max-min fair shares of one resource (nodes) by water-filling: each claimant gets
 * {@code min(demand, max(floor, level × weight))}, with the one water level at which the shares add
 * up to the capacity. Nobody gets more than it demands; what one does not demand flows to the others
 * in proportion to their weights; a floor (the minimum share, never more than the demand) is given
 * first. With one resource this is also what Dominant Resource Fairness gives.
 *
 * <p>Worked example (the unit test's): capacity 20, demands 12, 8, 6, weights 1, 1, 2. At level 3
 * the third is full (2 × 3 = 6) and the shares add up to 3 + 3 + 6 = 12; from there the first two
 * rise together, 2 nodes a unit of level, and reach 20 at level 3 + 8 / 2 = 7: shares 7, 7, 6.
 *
 * <p>How: the shares are a continuous, non-decreasing, piecewise linear function of the level,
 * with breaks where a claimant reaches its floor ({@code floor / weight}) or its demand
 * ({@code demand / weight}). The first break at which the shares reach the capacity brackets the
 * level, which is then found by the one linear step inside the bracket.
 *
 * <p>Whole nodes: every share is rounded down and the nodes left over go one each to the largest
 * fractions, ties to the larger weight, then by id ({@link NaturalOrder}). When the floors alone
 * exceed the capacity (an admin gave more minimum shares than there are nodes), they are filled in
 * order of weight, then id, and nobody gets more.
 */
final class WaterFilling {
    private static final double EPSILON = 1e-9;

    /** One claimant: what it demands, its weight and the floor it gets first. */
    record Claim(String id, int demand, double weight, int floor) {
        int floorWithinDemand() {
            return Math.min(floor, demand);
        }
    }

    /**
     * The shares, by id in the claims' order, and the water level (nodes per unit of weight);
     * the level is infinite when every demand is met and 0 when the floors take everything.
     */
    record Result(Map<String, Integer> shares, double level) {
    }

    private WaterFilling() {
    }

    static Result fill(int capacity, List<Claim> claims) {
        long demanded = claims.stream().mapToLong(Claim::demand).sum();
        if (demanded <= capacity) {
            Map<String, Integer> all = new LinkedHashMap<>();
            claims.forEach(c -> all.put(c.id(), c.demand()));
            return new Result(all, Double.POSITIVE_INFINITY);
        }
        long floors = claims.stream().mapToLong(Claim::floorWithinDemand).sum();
        if (floors >= capacity) {
            return new Result(floorsOnly(capacity, claims), 0);
        }
        double level = level(capacity, claims);
        return new Result(rounded(capacity, claims, level), level);
    }

    private static double level(int capacity, List<Claim> claims) {
        TreeSet<Double> breaks = new TreeSet<>();
        breaks.add(0.0);
        for (Claim c : claims) {
            breaks.add(c.floorWithinDemand() / c.weight());
            breaks.add(c.demand() / c.weight());
        }
        double below = 0;
        for (double at : breaks) {
            if (total(claims, at) >= capacity - EPSILON) {
                double rising = 0;
                for (Claim c : claims) {
                    if (c.floorWithinDemand() / c.weight() <= below + EPSILON && c.demand() / c.weight() >= at - EPSILON) {
                        rising += c.weight();
                    }
                }
                return rising == 0 ? at : below + (capacity - total(claims, below)) / rising;
            }
            below = at;
        }
        return below;
    }

    private static double total(List<Claim> claims, double level) {
        return claims.stream().mapToDouble(c -> share(c, level)).sum();
    }

    private static double share(Claim c, double level) {
        return Math.min(c.demand(), Math.max(c.floorWithinDemand(), level * c.weight()));
    }

    private static Map<String, Integer> rounded(int capacity, List<Claim> claims, double level) {
        Map<String, Integer> shares = new LinkedHashMap<>();
        List<Claim> byFraction = new ArrayList<>();
        int given = 0;
        for (Claim c : claims) {
            double exact = share(c, level);
            int whole = (int) Math.floor(exact + EPSILON);
            shares.put(c.id(), whole);
            given += whole;
            if (exact - whole > EPSILON) {
                byFraction.add(c);
            }
        }
        byFraction.sort(Comparator.<Claim>comparingDouble(c -> -(share(c, level) - Math.floor(share(c, level) + EPSILON)))
                .thenComparing(c -> -c.weight()).thenComparing(Claim::id, NaturalOrder.IDS));
        for (int i = 0; i < byFraction.size() && given < capacity; i++, given++) {
            shares.merge(byFraction.get(i).id(), 1, Integer::sum);
        }
        return shares;
    }

    private static Map<String, Integer> floorsOnly(int capacity, List<Claim> claims) {
        Map<String, Integer> shares = new LinkedHashMap<>();
        claims.forEach(c -> shares.put(c.id(), 0));
        int left = capacity;
        List<Claim> order = new ArrayList<>(claims);
        order.sort(Comparator.<Claim>comparingDouble(c -> -c.weight()).thenComparing(Claim::id, NaturalOrder.IDS));
        for (Claim c : order) {
            int give = Math.min(left, c.floorWithinDemand());
            shares.put(c.id(), give);
            left -= give;
        }
        return shares;
    }
}
