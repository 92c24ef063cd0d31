package koala.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import koala.api.runner.RunnerClient;
import koala.api.scheduler.NodeTask;
import koala.api.site.PilotNeeds;
import koala.api.site.PilotSpec;
import koala.api.site.SiteAgentClient;
import koala.common.failure.Unavailable;
import koala.grid.SiteConfig;
import koala.process.ProcessClasspath;
import koala.scheduler.claiming.NodeClaim;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Claims and releases nodes through the site agents. A node's pilot runs the node launcher, which
 * calls back to this scheduler with the node's token; the pilot asks for one node with the site's
 * native specification and claims what the node needs ({@link PilotClaim}), which the site's agent says in its
 * resource manager's words. Where the launcher is and how it reaches the scheduler depends on the site:
 * on this machine, this JVM's Java and class path; on a remote site, the copies on its head node
 * and the agent's relay there, which compute nodes reach.
 */
final class Pilots {
    private static final Logger LOG = LogManager.getLogger(Pilots.class);
    static final String LAUNCHER = "koala.node.NodeLauncher";
    /** A launcher is small and short-lived: a small heap, the simplest collector, no optimizing compiler. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            // SGE limits each process of a job that claims h_vmem to its claim: with a small code cache, class
            // space and metaspace the launcher's JVM starts in about 407 MiB of address space, against 1.45 GiB
            "-XX:ReservedCodeCacheSize=16m", "-XX:CompressedClassSpaceSize=16m", "-XX:MaxMetaspaceSize=32m");
    /**
     * The pilot's environment: glibc's malloc arenas held to two, so that the JVM's address space does
     * not grow with the host's cores (64 MB per arena) past a memory claim.
     */
    static final Map<String, String> ENVIRONMENT = Map.of("MALLOC_ARENA_MAX", "2");
    /** A launcher run through its whole path against a stand-in scheduler on loopback, to train the class archive. */
    static final List<String> TRAINING = List.of("--train");

    /**
     * How a site's pilots start the node launcher; every path is one on the machines that run them.
     *
     * @param classpath      the launcher's jars as the site's nodes see them
     * @param programs       the jars of KOALA's programs a job runs ({@code ${KOALA_CLASSPATH}}), or none
     * @param archiveOptions JVM options mapping a class archive of the launcher, or none
     * @param schedulerUrl   where the launcher calls back
     * @param logDir         where the pilots' output goes
     * @param reachable      a URL on this machine (a runner's, on loopback or the advertised KOALA host) as the
     *                       site's nodes reach it
     */
    record Launcher(String java, List<String> classpath, List<String> programs, List<String> archiveOptions,
                    String schedulerUrl, String logDir, java.util.function.UnaryOperator<String> reachable) {
    }

    /**
     * The pilot's JVM up to the launcher's main class: its options, its class archive, its class path,
     * and the class path of KOALA's programs, which it hands to a job's {@code ${KOALA_CLASSPATH}}.
     */
    static List<String> launcherJvm(Launcher launcher) {
        List<String> args = new ArrayList<>(JVM_OPTIONS);
        args.addAll(launcher.archiveOptions());
        if (!launcher.programs().isEmpty()) {
            args.add("-D" + ProcessClasspath.PROGRAMS_PROPERTY + "=" + String.join(":", launcher.programs()));
        }
        args.addAll(List.of("-cp", String.join(":", launcher.classpath()), LAUNCHER));
        return args;
    }

    /** The launcher's options after its main class: where to call back, which node, how long to wait, the node's cores. */
    static List<String> launcherArguments(String schedulerUrl, String node, Duration giveUp, int cores) {
        return List.of("--scheduler", schedulerUrl, "--node", node, "--give-up", Long.toString(giveUp.toSeconds()),
                "--cores", Integer.toString(cores));
    }

    /** The agent that submits and kills an owner's pilots on a site, and the account they run as there. */
    record Agent(SiteAgentClient client, String account) {
    }

    /** Finds {@link Agent}s; null when the site has not been reached. */
    @FunctionalInterface
    interface Agents {
        Agent of(String site, String owner);
    }

    private final Agents agents;
    private final Map<String, SiteConfig> sites;
    private final Function<String, Launcher> launchers;
    private final Duration giveUp;
    private final String tag;
    /** Relays made on remote head nodes, by site and URL. */
    private final Map<String, String> relayed = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Set<String> preparing = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.Executor relays;
    private final java.util.function.BiConsumer<String, String> unrelay;
    private final Runnable changed;
    /** Kills go to the agents from here, never from the scheduler's loop: an agent may be slow to answer. */
    private final java.util.concurrent.ExecutorService killer = java.util.concurrent.Executors.newSingleThreadExecutor(
            SchedulerDaemon.daemon("pilot-kills"));

    /**
     * @param launchers each site's launcher; may throw {@link Unavailable} while a site is unreachable
     * @param relays    where relays on remote head nodes are made (SSH work)
     * @param changed   wakes the nodes' long-polls: a relay they wait for is made
     */
    Pilots(Agents agents, Map<String, SiteConfig> sites, Function<String, Launcher> launchers,
           Duration giveUp, String tag, java.util.concurrent.Executor relays, Runnable changed) {
        this(agents, sites, launchers, giveUp, tag, relays, (site, url) -> { }, changed);
    }

    /**
     * @param unrelay closes a site's relay to a runner's URL, once its instance has ended (SSH work,
     *                run on {@code relays})
     */
    Pilots(Agents agents, Map<String, SiteConfig> sites, Function<String, Launcher> launchers,
           Duration giveUp, String tag, java.util.concurrent.Executor relays,
           java.util.function.BiConsumer<String, String> unrelay, Runnable changed) {
        this.relays = relays;
        this.unrelay = unrelay;
        this.changed = changed;
        this.tag = tag;
        this.agents = agents;
        this.sites = sites;
        this.launchers = launchers;
        this.giveUp = giveUp;
    }

    /**
     * The network a site's nodes are on: the grid's own for sites whose nodes this machine reaches,
     * a remote site's private one for its nodes, which reach only each other and their head node.
     * Entities of one framework instance must talk to each other, so they share one.
     */
    String network(String site) {
        SiteConfig config = sites.get(site);
        return config != null ? config.network() : SiteConfig.GRID_NETWORK;
    }

    /**
     * Whether {@code site} runs every user's pilots as one account (a remote site, reached through the
     * one SSH account the admin gave KOALA): there one user's processes could read another's
     * entities' environments, secrets included, so the site holds one owner's work at a time.
     */
    boolean singleTenant(String site) {
        SiteConfig config = sites.get(site);
        return config != null && config.remote();
    }

    /** The cores of one node of {@code site} ({@code site.S.node.cores}); null for a site not configured here. */
    Integer cores(String site) {
        SiteConfig config = sites.get(site);
        return config == null ? null : config.nodeCores();
    }

    /** The SGE slots of one node of {@code site} ({@code site.S.node.slots}); 1 for a site not configured here. */
    int slots(String site) {
        SiteConfig config = sites.get(site);
        return config == null ? 1 : config.nodeSlots();
    }

    /** Submits the node's pilot, to run as {@code owner} where the site allows; returns the manager's job id. */
    String submit(NodeClaim node, String owner) {
        return submit(node, owner, PilotClaim.NODE);
    }

    /** As above, the pilot claiming {@code claim}: the node's cores, memory, GPUs and wall time. */
    String submit(NodeClaim node, String owner, PilotClaim claim) {
        Launcher launcher = launchers.apply(node.site());
        Agent agent = agents.of(node.site(), owner);
        if (agent == null) {
            throw new Unavailable("site " + node.site() + " has not been reached");
        }
        return agent.client().submit(spec(node, owner, claim, launcher, agent.account())).id();
    }

    /**
     * The pilot of {@code node}, run by {@code launcher} as {@code runAs}: it claims what {@link #needs} says, and
     * the site's own request ({@code node.nativeSpec}) goes beside that as it is.
     */
    PilotSpec spec(NodeClaim node, String owner, PilotClaim claim, Launcher launcher, String runAs) {
        SiteConfig site = sites.get(node.site());
        // a user's pilots write where only that user may: their own directory beside the site account's
        String logDir = runAs.equals(site.agentUser()) ? launcher.logDir() : launcher.logDir() + "-" + runAs;
        List<String> args = new ArrayList<>(launcherJvm(launcher));
        int cores = claim.perNode().equals(koala.placement.Resources.NODE) ? site.nodeCores() : claim.perNode().cores();
        args.addAll(launcherArguments(launcher.schedulerUrl(), node.id(), giveUp, cores));
        // the token goes in a file only the pilot's account reads: qstat -j shows a job's environment to everyone
        String tokenFile = logDir + "/" + node.pilotName(tag) + ".token";
        args.addAll(List.of("--token-file", tokenFile));
        return new PilotSpec(node.pilotName(tag), launcher.java(), args, ENVIRONMENT, needs(node, owner, claim),
                site.nodeNativeSpec(), logDir + "/" + node.pilotName(tag) + ".log", null, "/tmp", node.token(), tokenFile);
    }

    /**
     * What the pilot of {@code node} claims of its host: {@code claim}, on the host its placement chose if any,
     * and charged to {@code owner} on a remote site, where every pilot runs as the site's one account (SGE's
     * account string); on a local site the pilot runs as its owner, who is charged anyway.
     */
    PilotNeeds needs(NodeClaim node, String owner, PilotClaim claim) {
        SiteConfig site = sites.get(node.site());
        return claim.needs(node.host(), site != null && site.remote() ? owner : null);
    }

    /**
     * The task as the node's launcher must see it: a runner's address on this machine becomes one
     * the node can reach (on a remote site, a relay on its head node, to a port forwarded here).
     * Making a relay is SSH work on the head node, never done on the caller's thread (the loop): until
     * it is made the node is told to wait, and {@code changed} wakes its long-poll when it is.
     */
    NodeTask forNode(String site, NodeTask task) {
        String runner = task.environment() == null ? null : task.environment().get(RunnerClient.URL_VARIABLE);
        if (runner == null) {
            return task;
        }
        String reachable = reachable(site, runner);
        if (reachable == null) {
            return NodeTask.waiting();
        }
        Map<String, String> env = new java.util.HashMap<>(task.environment());
        env.put(RunnerClient.URL_VARIABLE, reachable);
        return task.withEnvironment(env);
    }

    /** {@code url} as {@code site}'s nodes reach it, or null while a relay for it is still being made. */
    private String reachable(String site, String url) {
        SiteConfig config = sites.get(site);
        if (config == null || !config.remote()) {
            return launchers.apply(site).reachable().apply(url);
        }
        String key = site + " " + url;
        String known = relayed.get(key);
        if (known == null) {
            prepare(site, url);
            known = relayed.get(key);
        }
        return known;
    }

    /**
     * Makes, off the caller's thread, the relay through which {@code site}'s nodes will reach
     * {@code url}: called when nodes are asked for, so that it is ready when they start.
     */
    void prepare(String site, String url) {
        SiteConfig config = sites.get(site);
        String key = site + " " + url;
        if (config == null || !config.remote() || relayed.containsKey(key) || !preparing.add(key)) {
            return;
        }
        relays.execute(() -> {
            try {
                relayed.put(key, launchers.apply(site).reachable().apply(url));
            } catch (RuntimeException e) {
                LOG.warn("no relay on {} for {} yet: {}", site, url, e.getMessage());
            } finally {
                preparing.remove(key);
                changed.run();
            }
        });
    }

    /**
     * The runner at {@code url} is gone for good (its instance ended): the relays made for it on remote
     * head nodes are closed, off the caller's thread, so that nothing listens there for it any more.
     * Every remote site is told, not only those this process asked a relay of: a relay made by the
     * scheduler before this one (restarted, or taken over from) was restored without being asked for.
     */
    void runnerGone(String url) {
        for (Map.Entry<String, SiteConfig> remote : sites.entrySet()) {
            if (!remote.getValue().remote()) {
                continue;
            }
            String site = remote.getKey();
            relayed.remove(site + " " + url);
            relays.execute(() -> {
                try {
                    unrelay.accept(site, url);
                } catch (RuntimeException e) {
                    LOG.warn("relay on {} for {} not closed: {}", site, url, e.getMessage());
                }
            });
        }
    }

    /**
     * Waits, at most {@code within}, for the kills already asked for, and takes no more: a scheduler
     * that stops must not stop its agents under a kill still on its way (the pilot would outlive it).
     */
    void finishKills(Duration within) {
        killer.shutdown();
        try {
            if (!killer.awaitTermination(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                LOG.warn("kills of pilots still pending after {} s; the next start sweeps what they leave", within.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the node's pilot, through the agent that runs {@code owner}'s; a pilot already gone is fine. */
    void kill(NodeClaim node, String owner) {
        if (node.pilot() != null) {
            kill(node.site(), node.pilot(), owner, "node " + node.id());
        }
    }

    /**
     * Asks the site's agent, off the caller's thread, to kill {@code pilot}; a pilot already gone is
     * fine. A kill that fails is only logged: the scheduler's sweep finds the pilot again among the
     * cell's jobs as one no node owns ({@link Recovery#orphanPilots}) and asks again.
     */
    /**
     * The node's pilot as its site's agent knows it once it ended: its reason ("exceeded its 4.13G memory
     * (max 4.2G): stopped by SGE", "signal SIGKILL") and its memory, or null. Blocking, within the
     * agent client's time-out: never called on the loop.
     */
    koala.api.site.PilotStatus endedAs(NodeClaim node, String owner) {
        Agent agent = agents.of(node.site(), owner);
        if (agent == null || node.pilot() == null) {
            return null;
        }
        return agent.client().status(node.pilot());
    }

    void kill(String site, String pilot, String owner, String whose) {
        killer.execute(() -> {
            Agent agent;
            try {
                agent = agents.of(site, owner);
            } catch (RuntimeException e) {
                LOG.warn("cannot kill pilot {} of {}: no agent for {} on {}: {}", pilot, whose, owner, site, e.getMessage());
                return;
            }
            if (agent == null) {
                LOG.warn("cannot kill pilot {} of {}: site {} has not been reached", pilot, whose, site);
                return;
            }
            try {
                agent.client().kill(pilot); // one the agent no longer knows has ended: nothing to kill
            } catch (RuntimeException e) {
                LOG.warn("could not kill pilot {} of {} on {}: {}", pilot, whose, site, e.toString());
            }
        });
    }
}
