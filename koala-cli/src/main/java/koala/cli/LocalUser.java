package koala.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import koala.common.grid.SiteConfig;

/** Plays a local user of a cell, who submits with plain qsub and knows nothing of KOALA. */
final class LocalUser {
    private LocalUser() {
    }

    static String qsub(SiteConfig site, String name, int seconds) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("runuser", "-u", site.agentUser(), "--", "/usr/bin/env"));
        site.cell().variables().forEach((k, v) -> line.add(k + "=" + v));
        line.addAll(List.of(site.cell().command("qsub").toString(), "-terse", "-b", "y", "-N", name, "-o", "/dev/null",
                "-j", "y", "/bin/sleep", Integer.toString(seconds)));
        Process p = new ProcessBuilder(line).directory(new java.io.File("/")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("qsub failed: " + out);
        }
        return out;
    }
}
