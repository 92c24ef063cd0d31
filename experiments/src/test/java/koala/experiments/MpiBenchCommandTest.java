package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import koala.jdf.ClusterCatalog;
import koala.jdf.ComponentSpec;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import org.junit.jupiter.api.Test;

/** The benchmark's two-cell job: one MPI world, 4 ranks on fs0 (mpirun's) then 4 on fs1, each told where to write. */
class MpiBenchCommandTest {
    @Test
    void theTwoCellJobIsOneMpiWorldWithItsFirstComponentOnTheFirstCell() {
        String text = MpiBenchCommand.jdf(Path.of("/home/koala/b/init.py"), Path.of("/home/koala/b/stamp-3-2"),
                Map.of("fs1", 4, "fs0", 4));

        JobDescription jdf = JdfParser.parse("bench.jdf", text, new ClusterCatalog(Map.of("fs0", 16, "fs1", 8)),
                List.of());

        assertThat(jdf.mpi()).isTrue();
        assertThat(jdf.components()).extracting(ComponentSpec::cluster).containsExactly("fs0", "fs1");
        assertThat(jdf.components()).extracting(ComponentSpec::count).containsExactly(4, 4);
        assertThat(jdf.components().get(1).arguments()).isEqualTo(List.of("/home/koala/b/init.py",
                "/home/koala/b/stamp-3-2"));
    }

    @Test
    void theMedianOfAnEvenNumberOfRunsIsTheMeanOfTheMiddleTwo() {
        assertThat(MpiBenchCommand.median(List.of(900.0, 700.0, 1200.0, 800.0))).isEqualTo(850.0);
    }
}
