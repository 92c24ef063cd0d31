package koala.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.StartEstimateView;
import koala.api.scheduler.SubmitRequest;
import koala.auth.Identity;
import koala.common.json.Json;
import koala.common.time.Poll;
import koala.http.ApiException;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfException;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.jdf.JobKind;
import koala.provisioning.PolicyKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code koala submit FILE...}: each file one job, checked here first (the same checks the
 * scheduler makes, so that errors show without a scheduler), then sent; a framework JDF starts its
 * instance's runner instead ({@link JobCommands#launchFramework}). One file failing does not stop
 * the others, except an unreachable scheduler, which would refuse them all the same.
 */
@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Submit job description files (JDF) to the scheduler, each file one job, and print each job "
                + "as the scheduler accepts it: 'job ID (NAME, KIND) STATE'.", "",
                "Each file is first checked as 'koala validate' checks it: an invalid one is reported "
                + "(FILE:LINE:COLUMN: message) and not sent, and the other files are still submitted. With several "
                + "files, those that failed are named at the end.", "",
                "A framework JDF (jobType = framework) starts its instance's framework runner instead and follows "
                + "the instance's deployment (see 'koala framework ID').", "",
                "Exit status: 0 when every job was submitted (with --wait: and FINISHED), 2 when a file was invalid "
                + "or refused by the scheduler, 1 on any other failure (the scheduler unreachable, a job that did "
                + "not finish).", ""},
        footer = {"", "Many jobs? Give them to one call (koala submit jobs/*.jdf): the command starts once, not once per job."})
final class SubmitCommand implements Callable<Integer> {
    /** What became of one file: a job (status 0), a framework instance (status 0, no job) or a failure. */
    /** @param schedulerGone the scheduler could not be reached, so the files after this one are not sent */
    record Outcome(String file, int status, String why, JobView job, boolean schedulerGone) {
        Outcome(String file, int status, String why, JobView job) {
            this(file, status, why, job, false);
        }

        static Outcome failed(String file, int status, String why) {
            return new Outcome(file, status, why, null);
        }
    }

    @Mixin
    GridOptions grid;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "job description files; '-' for standard input")
    List<String> files;

    @Option(names = "--wait", description = "after submitting, wait until every job has ended; exit 0 only if each "
            + "FINISHED")
    boolean await;

    @Option(names = "--json", description = "print each job as JSON (one document per job) instead of a line")
    boolean json;

    @Option(names = "--dry-run", description = "queue nothing: print where and when each job would likely start, were "
            + "it submitted now (the scheduler's own placement replayed on the grid as it stands), with the range it "
            + "starts in 8 times out of 10 and what it would wait for; exit 2 for a job no site could ever hold")
    boolean dryRun;

    /** Who submits: this process's account (tests put another). */
    java.util.function.Supplier<Identity> submitter = RunnerLaunch::submitter;

    /** Set by picocli; null when {@link QuickArgs} read the arguments (then standard output and error). */
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec != null ? spec.commandLine().getOut() : new PrintWriter(System.out, true);
        PrintWriter err = spec != null ? spec.commandLine().getErr() : new PrintWriter(System.err, true);
        ClusterCatalog clusters = GridCatalog.of(grid.grid());
        SchedulerClient client = grid.client();
        List<Outcome> outcomes = new ArrayList<>();
        for (String file : files) {
            Outcome outcome = submit(file, clusters, client, out, err);
            outcomes.add(outcome);
            if (outcome.schedulerGone()) {
                files.subList(outcomes.size(), files.size())
                        .forEach(f -> outcomes.add(Outcome.failed(f, Koala.FAILURE, "not sent")));
                break;
            }
        }
        if (await) {
            outcomes.replaceAll(o -> o.job() == null ? o : awaitEnd(client, o, out));
        }
        out.flush();
        return summary(outcomes, err);
    }

    private Outcome submit(String file, ClusterCatalog clusters, SchedulerClient client, PrintWriter out,
                           PrintWriter err) throws IOException {
        Optional<String> text = JdfFiles.read(file, err);
        if (text.isEmpty()) {
            return Outcome.failed(file, Koala.BAD_INPUT, "unreadable");
        }
        JobDescription parsed;
        try {
            parsed = JdfParser.parse(file, text.get(), clusters, PolicyKind.shortNames());
        } catch (JdfException e) {
            JdfFiles.printed(file, e.errors()).forEach(err::println);
            return Outcome.failed(file, Koala.BAD_INPUT, "invalid");
        }
        if (parsed.kind() == JobKind.FRAMEWORK) {
            if (dryRun) {
                err.println("koala: " + file + ": a framework instance grows as it goes; --dry-run estimates jobs only");
                return Outcome.failed(file, Koala.BAD_INPUT, "framework JDF in a dry run");
            }
            return framework(file, client, out, err);
        }
        if (dryRun) {
            return dryRun(file, text.get(), client, out, err);
        }
        try {
            if (!json && !await) {
                // the everyday case: the job's line only, so no Jackson in this process
                CallTiming.mark("sent");
                java.util.Map<String, Object> job = client.submitPlain(file, text.get());
                CallTiming.mark("answered");
                out.printf("job %s (%s, %s) %s%n", job.get("id"), job.get("name"), job.get("kind"), job.get("state"));
                return new Outcome(file, 0, null, null);
            }
            CallTiming.mark("sent");
            JobView job = client.submit(new SubmitRequest(file, text.get()));
            CallTiming.mark("answered");
            print(job, out);
            return new Outcome(file, 0, null, job);
        } catch (ApiException e) {
            err.println("koala: " + JobCommands.reason(e));
            boolean gone = JobCommands.unreachable(e);
            return new Outcome(file, JobCommands.status(e), gone ? "scheduler unreachable" : "refused", null, gone);
        }
    }

    /** Asks the scheduler when the job would start; queues nothing. */
    private Outcome dryRun(String file, String text, SchedulerClient client, PrintWriter out, PrintWriter err) {
        try {
            StartEstimateView e = client.estimate(new SubmitRequest(file, text));
            if (json) {
                out.println(Json.pretty(e));
            } else {
                String where = e.sites().isEmpty() ? "" : " on " + String.join(", ", e.sites());
                out.printf("%s: would start%s: %s%n", file, where, StartLines.sentence(e, java.time.ZoneId.systemDefault()));
            }
            return "NEVER_PLACEABLE".equals(e.status()) ? Outcome.failed(file, Koala.BAD_INPUT, "never placeable")
                    : new Outcome(file, 0, null, null);
        } catch (ApiException e) {
            err.println("koala: " + JobCommands.reason(e));
            boolean gone = JobCommands.unreachable(e);
            return new Outcome(file, JobCommands.status(e), gone ? "scheduler unreachable" : "refused", null, gone);
        }
    }

    private Outcome framework(String file, SchedulerClient client, PrintWriter out, PrintWriter err)
            throws IOException {
        if (file.equals("-")) {
            err.println("koala: -: a framework JDF is read by its runner: give a file, not '-'");
            return Outcome.failed(file, Koala.BAD_INPUT, "framework JDF on standard input");
        }
        Optional<String> notYours = JobCommands.ownsNoInstance(submitter.get(), client);
        if (notYours.isPresent()) {
            err.println("koala: " + notYours.get());
            return Outcome.failed(file, Koala.FAILURE, "a system account owns no framework instance");
        }
        out.flush();
        int status = JobCommands.launchFramework(Path.of(file), grid, client, json);
        return status == 0 ? new Outcome(file, 0, null, null)
                : Outcome.failed(file, status, "framework instance not running");
    }

    /** The line (or, with --json, the document) for a job: at once, or once it has ended when waiting. */
    private void print(JobView job, PrintWriter out) {
        if (!json) {
            out.printf("job %d (%s, %s) %s%n", job.id(), job.name(), job.kind(), job.state());
        } else if (!await) {
            out.println(Json.pretty(job));
        }
    }

    private Outcome awaitEnd(SchedulerClient client, Outcome submitted, PrintWriter out) {
        boolean several = files.size() > 1;
        JobView[] latest = {submitted.job()};
        String[] shown = {""};
        new Poll(InstantSource.system(), Duration.ofMillis(500)).until(() -> {
            latest[0] = client.job(submitted.job().id());
            String line = (several ? "job " + latest[0].id() + " " : "") + latest[0].state()
                    + (latest[0].waitingBecause() == null ? "" : ": " + latest[0].waitingBecause());
            if (!json && !line.equals(shown[0])) {
                out.println("  " + line);
                shown[0] = line;
            }
            return latest[0].ended();
        }, Duration.ofDays(365));
        JobView job = latest[0];
        if (json) {
            out.println(Json.pretty(job));
        } else if (several) {
            out.printf("job %d (%s) %s%n", job.id(), job.name(), job.state());
        } else {
            JobCommands.Status.print(job, out);
        }
        return job.state().equals("FINISHED") ? new Outcome(submitted.file(), 0, null, job)
                : new Outcome(submitted.file(), Koala.FAILURE, "job " + job.id() + " " + job.state(), job);
    }

    /** The exit status of the whole call; with several files, those that failed are named. */
    private int summary(List<Outcome> outcomes, PrintWriter err) {
        List<Outcome> failed = outcomes.stream().filter(o -> o.status() != 0).toList();
        if (failed.isEmpty()) {
            return 0;
        }
        if (outcomes.size() > 1) {
            err.printf("koala: %d of %d files failed: %s%n", failed.size(), outcomes.size(),
                    failed.stream().map(o -> o.file() + " (" + o.why() + ")").collect(Collectors.joining(", ")));
        }
        err.flush();
        return failed.stream().anyMatch(o -> o.status() == Koala.FAILURE) ? Koala.FAILURE : Koala.BAD_INPUT;
    }
}
