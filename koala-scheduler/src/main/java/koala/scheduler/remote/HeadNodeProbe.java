package koala.scheduler.remote;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;

/**
 * What the scheduler checks on a head node before it starts an agent there: the agent's directory,
 * a Java 17 or later, the SGE cell and its client commands and the DRMAA binding the site names (or a
 * Slurm site's commands, {@code slurm.conf} and controller: {@link SlurmHeadNode}), and the head
 * node's host name (where the relays listen unless {@code ssh.relayHost} names another).
 * One shell script prints {@code key=value} lines; {@link #read} turns them into the head node's
 * facts or into problems that each name the configuration key to fix.
 */
final class HeadNodeProbe {
    static final int JAVA_NEEDED = 17;
    private static final Pattern VERSION = Pattern.compile("version \"(\\d+)(?:\\.(\\d+))?");

    /**
     * The head node as the agent and the pilots will use it.
     *
     * @param hostname what {@code hostname} prints there; empty if nothing
     */
    record HeadNode(String dir, String java, String hostname) {
    }

    private HeadNodeProbe() {
    }

    /** The probe, run by the login account's shell: an SGE cell's or, for {@code site.S.manager = slurm}, a Slurm cluster's. */
    static String script(SiteConfig site) {
        return site.slurm().map(slurm -> SlurmHeadNode.script(site, slurm)).orElseGet(() -> sgeScript(site));
    }

    private static String sgeScript(SiteConfig site) {
        SshConfig ssh = site.ssh().orElseThrow();
        List<String> lines = new ArrayList<>(List.of(
                "J=" + Sh.quote(ssh.java()) + "; R=" + Sh.quote(site.cell().sgeRoot().toString())
                        + "; C=" + Sh.quote(site.cell().cell()) + "; B=" + Sh.quote(site.cell().binDir().toString()),
                "DJ=" + Sh.quote(site.drmaa().jar().toString()) + "; DL=" + Sh.quote(site.drmaa().library().toString())
                        + "; P=" + Sh.quote(site.drmaa().preload().map(Object::toString).orElse(""))));
        lines.addAll(agentLines(ssh));
        lines.addAll(List.of(
                "[ -f \"$R/$C/common/act_qmaster\" ] && echo cell=yes || echo cell=no",
                "[ -x \"$B/qstat\" ] && echo qstat=yes || echo qstat=no",
                "[ -f \"$DJ\" ] && echo drmaaJar=yes || echo drmaaJar=no",
                "[ -f \"$DL\" ] && echo drmaaLibrary=yes || echo drmaaLibrary=no",
                "[ -z \"$P\" ] || { [ -f \"$P\" ] && echo preload=yes || echo preload=no; }"));
        lines.addAll(END_LINES);
        return String.join("\n", lines);
    }

    /** What every agent needs, whatever its manager: its directory and a Java, named by {@code J}. */
    static List<String> agentLines(SshConfig ssh) {
        return List.of(
                // the agent's token, configuration and state live there: the site's account alone reads it
                "D=$(cd && umask 077 && mkdir -p " + Sh.quote(ssh.dir()) + " && chmod go-rwx " + Sh.quote(ssh.dir())
                        + " && cd " + Sh.quote(ssh.dir()) + " && pwd) && echo \"dir=$D\"",
                "JP=$(command -v \"$J\" 2>/dev/null); echo \"java=$JP\"",
                "[ -n \"$JP\" ] && echo \"javaVersion=$(\"$JP\" -version 2>&1 | head -n 1)\"");
    }

    /** The head node's name, where the relays listen, and the end of every probe. */
    static final List<String> END_LINES = List.of("echo \"hostname=$(hostname 2>/dev/null)\"", "exit 0");

    /** The head node's facts, or an {@link IllegalStateException} listing every problem found. */
    static HeadNode read(SiteConfig site, String output) {
        Map<String, String> facts = facts(output);
        String p = "site." + site.name() + ".";
        List<String> problems = new ArrayList<>();
        agentProblems(site, facts, problems);
        site.slurm().ifPresentOrElse(slurm -> problems.addAll(SlurmHeadNode.problems(p, slurm, facts)),
                () -> sgeProblems(site, facts, problems));
        return headNode(site, facts, problems);
    }

    /** The probe's {@code key=value} lines; a value may hold {@code =}. */
    static Map<String, String> facts(String output) {
        Map<String, String> facts = new LinkedHashMap<>();
        output.lines().map(l -> l.split("=", 2)).filter(kv -> kv.length == 2).forEach(kv -> facts.put(kv[0], kv[1].trim()));
        return facts;
    }

    private static void agentProblems(SiteConfig site, Map<String, String> facts, List<String> problems) {
        SshConfig ssh = site.ssh().orElseThrow();
        String p = "site." + site.name() + ".";
        if (facts.getOrDefault("dir", "").isEmpty()) {
            problems.add(p + "ssh.dir = " + ssh.dir() + ": cannot be created in the home of " + ssh.user());
        }
        String java = facts.getOrDefault("java", "");
        if (java.isEmpty()) {
            problems.add("no Java on the head node: " + p + "ssh.java = " + ssh.java() + " is not found"
                    + " (install Java " + JAVA_NEEDED + " there, or name its path)");
        } else {
            Optional<Integer> major = major(facts.getOrDefault("javaVersion", ""));
            if (major.isEmpty() || major.get() < JAVA_NEEDED) {
                problems.add(p + "ssh.java = " + java + " is " + major.map(m -> "Java " + m)
                        .orElse("not a Java (" + facts.getOrDefault("javaVersion", "") + ")")
                        + "; the agent needs Java " + JAVA_NEEDED + " or later");
            }
        }
    }

    private static void sgeProblems(SiteConfig site, Map<String, String> facts, List<String> problems) {
        String p = "site." + site.name() + ".";
        if ("no".equals(facts.get("cell"))) {
            problems.add("no SGE cell on the head node at " + p + "sge.root/" + p + "sge.cell = "
                    + site.cell().sgeRoot() + "/" + site.cell().cell() + " (no common/act_qmaster)");
        }
        if ("no".equals(facts.get("qstat"))) {
            problems.add("no SGE commands on the head node: " + p + "sge.bin = " + site.cell().binDir() + " has no qstat");
        }
        missing(facts, "drmaaJar", p + "drmaa.jar = " + site.drmaa().jar(), problems);
        missing(facts, "drmaaLibrary", p + "drmaa.library = " + site.drmaa().library(), problems);
        missing(facts, "preload", p + "drmaa.preload = " + site.drmaa().preload().map(Object::toString).orElse(""), problems);
    }

    private static HeadNode headNode(SiteConfig site, Map<String, String> facts, List<String> problems) {
        SshConfig ssh = site.ssh().orElseThrow();
        String hostname = facts.getOrDefault("hostname", "");
        if (hostname.isEmpty() && ssh.relayHost().isEmpty()) {
            problems.add("hostname printed nothing there: set site." + site.name() + ".ssh.relayHost to the head node's "
                    + "name or address as its compute nodes reach it");
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("site " + site.name() + ": head node " + ssh.host() + ": "
                    + String.join("; ", problems));
        }
        return new HeadNode(facts.getOrDefault("dir", ""), facts.getOrDefault("java", ""), hostname);
    }

    private static void missing(Map<String, String> facts, String fact, String setting, List<String> problems) {
        if ("no".equals(facts.get(fact))) {
            problems.add(setting + ": no such file on the head node");
        }
    }

    /** The major version in {@code java -version}'s first line: 17 for "17.0.15", 8 for "1.8.0_392". */
    static Optional<Integer> major(String versionLine) {
        Matcher m = VERSION.matcher(versionLine);
        if (!m.find()) {
            return Optional.empty();
        }
        int first = Integer.parseInt(m.group(1));
        return Optional.of(first == 1 && m.group(2) != null ? Integer.parseInt(m.group(2)) : first);
    }
}
