package koala.placement;

import static koala.placement.Fixtures.at;
import static koala.placement.Fixtures.fixed;
import static koala.placement.Fixtures.free;
import static koala.placement.Fixtures.grid;
import static koala.placement.Fixtures.job;
import static koala.placement.Fixtures.placed;
import static koala.placement.Fixtures.site;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Worked examples on fs0 16 nodes / 10 idle, fs1 8 / 8, fs2 8 / 3 with this catalog: reads.db,
 * 2,000 MB on fs1 and fs2; params.cfg, 50 MB on fs0; 50 MB/s from fs1 to fs0, 200 MB/s from fs2
 * to fs0, 100 MB/s between any other two sites.
 *
 * <p>Estimates for a component reading reads.db and params.cfg:
 * fs0 = min(2000/50, 2000/200) + 0 = min(40, 10) = 10 s; fs1 = 0 + 50/100 = 0.5 s;
 * fs2 = 0 + 50/100 = 0.5 s.
 */
class CloseToFilesTest {
    private static final FileLocations CATALOG = new FileLocations(
            Map.of("reads.db", new StoredFile(2_000_000_000L, Set.of("fs1", "fs2")),
                    "params.cfg", new StoredFile(50_000_000L, Set.of("fs0"))),
            Map.of("fs1->fs0", 50.0, "fs2->fs0", 200.0), 100.0);
    private static final GridView GRID = grid(CATALOG, site("fs0", 16, 10), site("fs1", 8, 8), site("fs2", 8, 3));
    private static final List<String> BOTH = List.of("reads.db", "params.cfg");

    private final PlacementPolicy closeToFiles = new CloseToFiles();

    @Test
    void estimateTakesTheFastestCopyOfEachFileAndSumsThem() {
        assertThat(CloseToFiles.estimatedTransferSeconds(BOTH, "fs0", CATALOG)).isEqualTo(10.0);
        assertThat(CloseToFiles.estimatedTransferSeconds(BOTH, "fs1", CATALOG)).isEqualTo(0.5);
        assertThat(CloseToFiles.estimatedTransferSeconds(BOTH, "fs2", CATALOG)).isEqualTo(0.5);
        assertThat(CloseToFiles.estimatedTransferSeconds(List.of("reads.db"), "fs0", CATALOG)).isEqualTo(10.0);
        assertThat(CloseToFiles.estimatedTransferSeconds(List.of(), "fs0", CATALOG)).isZero();
    }

    @Test
    void theEstimateDecidesAgainstWorstFit() {
        // 4 nodes fit on fs0 (10 s) and fs1 (0.5 s), not on fs2 (3 idle). Worst-Fit takes fs0.
        JobNeed job = job(free(0, 4, "reads.db", "params.cfg"));
        assertThat(closeToFiles.place(job, GRID)).isEqualTo(placed(at(0, "fs1", 4)));
        assertThat(new WorstFit().place(job, GRID)).isEqualTo(placed(at(0, "fs0", 4)));
    }

    @Test
    void equalEstimatesGoToTheSiteWithMoreIdle() {
        // 2 nodes: fs1 and fs2 both 0.5 s; fs2 has more idle here (8 > 3) although fs1 comes first by name
        GridView fs2Emptier = grid(CATALOG, site("fs0", 16, 10), site("fs1", 8, 3), site("fs2", 8, 8));
        assertThat(closeToFiles.place(job(free(0, 2, "reads.db", "params.cfg")), fs2Emptier))
                .isEqualTo(placed(at(0, "fs2", 2)));
    }

    @Test
    void equalEstimatesAndIdleGoByName() {
        GridView even = grid(CATALOG, site("fs2", 8, 8), site("fs1", 8, 8), site("fs0", 16, 8));
        // fs1 and fs2 0.5 s with 8 idle each: fs1. fs0 (10 s) is out.
        assertThat(closeToFiles.place(job(free(0, 2, "reads.db", "params.cfg")), even))
                .isEqualTo(placed(at(0, "fs1", 2)));
    }

    @Test
    void laterComponentsSeeWhatEarlierOnesTook() {
        // 0 (6, reads.db): fs0 10 s, fs1 0 s, fs2 too small -> fs1 (2 left)
        // 1 (4, reads.db): fs1 now too small, fs2 too small -> fs0 although it costs 10 s
        JobNeed job = job(free(0, 6, "reads.db"), free(1, 4, "reads.db"));
        assertThat(closeToFiles.place(job, GRID)).isEqualTo(placed(at(0, "fs1", 6), at(1, "fs0", 4)));
    }

    @Test
    void semiFixedJobEstimatesForTheOtherComponents() {
        // fixed 0 (6) takes fs1 down to 2; 1 (2, reads.db): fs1 0 s with 2 left, fs2 0 s with 3 -> fs2
        JobNeed job = job(fixed(0, 6, "fs1"), free(1, 2, "reads.db"));
        assertThat(closeToFiles.place(job, GRID)).isEqualTo(placed(at(0, "fs1", 6), at(1, "fs2", 2)));
    }

    @Test
    void fileNotInTheCatalogCostsNothingAndDoesNotStopTheJob() {
        assertThat(CloseToFiles.estimatedTransferSeconds(List.of("missing.txt"), "fs0", CATALOG)).isZero();
        // every site 0 s: the most idle, fs0, as Worst-Fit
        assertThat(closeToFiles.place(job(free(0, 4, "missing.txt")), GRID)).isEqualTo(placed(at(0, "fs0", 4)));
    }

    @Test
    void componentWithoutFilesIsPlacedAsWorstFitWould() {
        assertThat(closeToFiles.place(job(free(0, 4)), GRID)).isEqualTo(placed(at(0, "fs0", 4)));
    }

    @Test
    void aCopyThatCannotBeFetchedCostsForeverButTheJobIsStillPlaced() {
        FileLocations cut = new FileLocations(Map.of("reads.db", new StoredFile(2_000_000_000L, Set.of("fs1"))),
                Map.of("fs1->fs0", 0.0), 100.0);
        assertThat(CloseToFiles.estimatedTransferSeconds(List.of("reads.db"), "fs0", cut)).isInfinite();
        assertThat(CloseToFiles.estimatedTransferSeconds(List.of("reads.db"), "fs2", cut)).isEqualTo(20.0);
        GridView onlyFs0 = grid(cut, site("fs0", 16, 10), site("fs1", 8, 2));
        assertThat(closeToFiles.place(job(free(0, 4, "reads.db")), onlyFs0)).isEqualTo(placed(at(0, "fs0", 4)));
    }

    @Test
    void aFileWithNoCopyAnywhereCostsNothing() {
        FileLocations lost = new FileLocations(Map.of("lost", new StoredFile(10, Set.of())), Map.of(), 100.0);
        assertThat(CloseToFiles.estimatedTransferSeconds(List.of("lost"), "fs0", lost)).isZero();
    }
}
