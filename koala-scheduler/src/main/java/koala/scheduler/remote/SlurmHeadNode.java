package koala.scheduler.remote;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.grid.SiteConfig;
import koala.grid.SlurmEnvironment;
import koala.grid.SshConfig;

/**
 * What a Slurm site's agent needs on its head node besides its directory and Java: Slurm's client
 * commands in {@code site.S.slurm.bin} (the agent runs each by its path there, never through
 * {@code PATH}), the {@code slurm.conf} the site names, readable, and a controller that answers
 * {@code scontrol show config} with it. No SGE cell and no DRMAA: the agent calls no library. Its
 * part of the probe, and the problems its output shows, each naming the configuration key to fix.
 */
final class SlurmHeadNode {
    /** The client commands the agent runs. */
    static final List<String> COMMANDS = List.of("sbatch", "squeue", "scancel", "sinfo", "scontrol", "sacct");
    /** How long the probe waits for the controller: well within the probe's own 30 s. */
    static final int CONTROLLER_WAIT_SECONDS = 15;
    /** What {@code timeout(1)} exits with when it killed the command. */
    private static final String TIMED_OUT = "124";

    private SlurmHeadNode() {
    }

    /** The probe of a Slurm head node, run by the login account's shell. */
    static String script(SiteConfig site, SlurmEnvironment slurm) {
        SshConfig ssh = site.ssh().orElseThrow();
        List<String> lines = new ArrayList<>();
        lines.add("J=" + Sh.quote(ssh.java()) + "; S=" + Sh.quote(slurm.binDir().toString()) + "; F="
                + Sh.quote(slurm.conf().toString()));
        lines.addAll(HeadNodeProbe.agentLines(ssh));
        for (String command : COMMANDS) {
            // where the login shell's PATH finds a command missing from slurm.bin tells the fix
            lines.add("[ -x \"$S/" + command + "\" ] && echo " + command + "=yes || echo \"" + command + "=no $(command -v "
                    + command + " 2>/dev/null)\"");
        }
        lines.add("[ -r \"$F\" ] && echo slurmConf=yes || echo slurmConf=no");
        // the controller asked as the agent asks it; through timeout(1) where there is one, so a silent one ends
        lines.add("if [ -x \"$S/scontrol\" ]; then T=$(command -v timeout 2>/dev/null); O=$(SLURM_CONF=\"$F\" ${T:+\"$T\" "
                + CONTROLLER_WAIT_SECONDS + "} \"$S/scontrol\" show config 2>&1); E=$?; [ $E -eq 0 ] && echo controller=yes"
                + " || echo \"controller=no $E $(printf '%s\\n' \"$O\" | head -n 1)\"; fi");
        lines.addAll(HeadNodeProbe.END_LINES);
        return String.join("\n", lines);
    }

    /** The problems the probe's {@code facts} show, each naming its key ({@code p} is {@code site.S.}). */
    static List<String> problems(String p, SlurmEnvironment slurm, Map<String, String> facts) {
        List<String> problems = new ArrayList<>();
        List<String> missing = COMMANDS.stream().filter(c -> facts.getOrDefault(c, "").startsWith("no")).toList();
        if (!missing.isEmpty()) {
            problems.add("Slurm commands missing on the head node: " + p + "slurm.bin = " + slurm.binDir() + " has no "
                    + String.join(", ", missing) + onPath(missing, facts));
        }
        if ("no".equals(facts.get("slurmConf"))) {
            problems.add(p + "slurm.conf = " + slurm.conf() + ": not readable on the head node");
        }
        // not asked without scontrol in slurm.bin: the missing command is the problem then
        String controller = facts.getOrDefault("controller", "yes");
        if (controller.startsWith("no")) {
            String[] said = controller.substring(2).trim().split(" ", 2);
            problems.add("Slurm's controller does not answer scontrol show config with " + p + "slurm.conf = "
                    + slurm.conf() + ": " + (said[0].equals(TIMED_OUT) ? "no answer within " + CONTROLLER_WAIT_SECONDS
                    + " s" : said.length > 1 && !said[1].isBlank() ? said[1].trim() : "exit status " + said[0]));
        }
        return problems;
    }

    /** Where the login shell's PATH has the missing commands, by directory: where slurm.bin should point. */
    private static String onPath(List<String> missing, Map<String, String> facts) {
        Map<String, List<String>> byDir = new LinkedHashMap<>();
        for (String command : missing) {
            String found = facts.get(command).substring(2).trim();
            if (!found.isEmpty()) {
                Path dir = Path.of(found).getParent();
                byDir.computeIfAbsent(dir == null ? found : dir.toString(), d -> new ArrayList<>()).add(command);
            }
        }
        if (byDir.isEmpty()) {
            return " (nor does the login shell's PATH find them)";
        }
        List<String> where = byDir.entrySet().stream().map(e -> String.join(", ", e.getValue()) + " in " + e.getKey())
                .toList();
        return " (the login shell's PATH has " + String.join("; ", where) + ": name that directory)";
    }
}
