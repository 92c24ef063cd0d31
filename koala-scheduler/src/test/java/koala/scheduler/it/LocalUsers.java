package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import koala.common.grid.GridConfig;
import koala.common.grid.SiteConfig;

/** Local users of a cell: they submit with plain qsub and know nothing of KOALA. */
final class LocalUsers {
    private LocalUsers() {
    }

    static String qsub(GridConfig grid, String site, String... args) throws Exception {
        return run(grid.site(site), "qsub", args).trim();
    }

    static void qdel(GridConfig grid, String site, List<String> ids) throws Exception {
        List<String> args = new ArrayList<>(ids);
        run(grid.site(site), "qdel", args.toArray(String[]::new));
    }

    static String qstatXml(GridConfig grid, String site) throws Exception {
        return run(grid.site(site), "qstat", "-xml", "-u", "*");
    }

    private static String run(SiteConfig site, String command, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of("runuser", "-u", site.agentUser(), "--", "/usr/bin/env"));
        site.cell().variables().forEach((k, v) -> line.add(k + "=" + v));
        line.add(site.cell().command(command).toString());
        line.addAll(List.of(args));
        Process p = new ProcessBuilder(line).directory(new java.io.File("/tmp")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(command + " said: " + out).isZero();
        return out;
    }
}
