package koala.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ledger counts only the sites it must, and answers as if it had counted them all. */
class IdleLedgerTest {
    private static final Resources[] SHAPES = {new Resources(4, 8192, 0), new Resources(8, 32768, 0), new Resources(16, 65536, 2)};
    private static final Resources[] REQUESTS = {Resources.NODE, new Resources(1, 4096, 0), new Resources(4, 16384, 0),
            new Resources(8, 32768, 0), new Resources(4, 16384, 1), new Resources(2, 0, 0)};

    @Test
    void theMostLeftByBoundsIsTheMostLeftCountingEverySite() {
        Random random = new Random(3);
        for (int i = 0; i < 3_000; i++) {
            List<SiteView> sites = new ArrayList<>();
            for (int s = 0, n = 1 + random.nextInt(24); s < n; s++) {
                List<HostView> hosts = new ArrayList<>();
                for (int h = 0, m = 1 + random.nextInt(6); h < m; h++) {
                    Resources total = SHAPES[random.nextInt(SHAPES.length)];
                    hosts.add(new HostView("s" + s + "-h" + h, total, new Resources(random.nextInt(total.cores() + 1),
                            random.nextLong(total.memoryMiB() + 1), random.nextInt(total.gpus() + 1))));
                }
                sites.add(random.nextInt(6) == 0 ? new SiteView("s" + s, 20, random.nextInt(21)) : new SiteView("s" + s, hosts));
            }
            Resources request = REQUESTS[random.nextInt(REQUESTS.length)];
            IdleLedger pruned = new IdleLedger(sites);
            pruned.focus(request);
            IdleLedger full = new IdleLedger(sites);
            full.focus(request);
            int expected = -1;
            for (int s = 0; s < full.size(); s++) {
                if (expected < 0 || full.moreLeft(s, expected)) {
                    expected = s;
                }
            }
            assertThat(pruned.mostLeft()).isEqualTo(expected);
            assertThat(pruned.maxLeft()).isEqualTo(full.left(expected));
            Integer[] order = full.byMostLeft();
            int nodes = 1 + random.nextInt(40);
            int holding = -1;
            for (int s = 0; s < full.size(); s++) {
                if (full.left(s) >= nodes && (holding < 0 || full.ranksAbove(s, holding))) {
                    holding = s;
                }
            }
            IdleLedger ranked = new IdleLedger(sites);
            ranked.focus(request);
            assertThat(ranked.bestHolding(nodes, false)).as("the best-ranked site holding %d", nodes).isEqualTo(holding);
            IdleLedger fresh = new IdleLedger(sites);
            fresh.focus(request);
            int[] top = fresh.topLeft(3);
            for (int k = 0; k < top.length; k++) {
                assertThat(top[k]).isEqualTo(order[k]);
            }
        }
    }

    @Test
    void theQuotientByReciprocalIsTheIntegerQuotient() {
        Random random = new Random(5);
        for (int i = 0; i < 1_000_000; i++) {
            long d = 1 + (i % 3 == 0 ? random.nextInt(64) : random.nextLong(1L << 22));
            long x = switch (i % 4) {
                case 0 -> random.nextLong(1L << 31);
                case 1 -> d * random.nextLong(1L << 20);
                case 2 -> Math.max(0, d * random.nextLong(1L << 20) - 1);
                default -> random.nextLong(d * 4);
            };
            assertThat(HostList.quotient(x, d, 1.0 / d)).as("%d / %d", x, d).isEqualTo(x / d);
        }
    }
}
