package koala.fluent.master;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.failure.InvalidField;
import koala.fluent.Application;
import koala.fluent.FluentJob;
import koala.fluent.device.Words;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobRequest;

/**
 * Checks a client's job and fills in defaults, before anything is placed: a bad field is a 400
 * naming it ({@code apps[2].durationMillis}), and the job changes nothing. For each SWC the master
 * counts the file's words itself, to check the application's output against.
 */
final class JobIntake {
    static final Duration RL_DURATION = Duration.ofSeconds(60);
    static final double RL_CPU = 50;
    static final Duration RL_LOAD_PERIOD = Duration.ofSeconds(10);
    static final Duration SWC_DURATION = Duration.ofSeconds(10);
    static final double SWC_CPU = 5;
    static final int MAX_SWC_N = 6;
    private static final long MAX_FILE_BYTES = 64L << 20;

    /** What a word count of an SWC's file must give. */
    record Expected(long words, int distinct) {
    }

    /** A checked job: its applications, with their requests as completed and the SWCs' expected counts. */
    record Accepted(FluentJob job, Map<String, AppRequest> requests, Map<String, Expected> expected) {
    }

    private JobIntake() {
    }

    /** A job's requests checked and completed, in the job's order, with each SWC's expected counts (null for an RL). */
    record Checked(List<AppRequest> apps, List<Expected> expected) {
    }

    static Accepted check(String jobId, JobRequest request, Instant now) {
        return accept(jobId, check(request), now);
    }

    /** Checks {@code request}, reading each SWC's file: done by the caller, off the master's loop. */
    static Checked check(JobRequest request) {
        if (request == null || request.apps() == null || request.apps().isEmpty()) {
            throw new InvalidField("apps", "missing: a job has at least 1 application");
        }
        List<AppRequest> apps = new ArrayList<>();
        List<Expected> expected = new ArrayList<>();
        for (int i = 0; i < request.apps().size(); i++) {
            AppRequest a = request.apps().get(i);
            String field = "apps[" + i + "]";
            if (a == null || a.kind() == null) {
                throw new InvalidField(field + ".kind", "missing: rl or swc");
            }
            String kind = a.kind().toLowerCase(java.util.Locale.ROOT);
            if (!kind.equals("rl") && !kind.equals("swc")) {
                throw new InvalidField(field + ".kind", "'" + a.kind() + "': rl or swc");
            }
            AppRequest full = kind.equals("rl") ? rl(a, field) : swc(a, field);
            apps.add(full);
            expected.add(kind.equals("swc") ? count(Path.of(full.file()), field + ".file") : null);
        }
        return new Checked(apps, expected);
    }

    /** The checked job as job {@code jobId}: its applications named {@code jobId.rl1}, {@code jobId.swc1}, ... */
    static Accepted accept(String jobId, Checked checked, Instant now) {
        Map<String, AppRequest> requests = new LinkedHashMap<>();
        Map<String, Expected> expected = new HashMap<>();
        Map<String, Integer> perKind = new HashMap<>();
        for (int i = 0; i < checked.apps().size(); i++) {
            AppRequest full = checked.apps().get(i);
            String id = jobId + "." + full.kind() + perKind.merge(full.kind(), 1, Integer::sum);
            requests.put(id, full);
            if (checked.expected().get(i) != null) {
                expected.put(id, checked.expected().get(i));
            }
        }
        return accepted(jobId, List.copyOf(requests.keySet()), requests, expected, now);
    }

    /**
     * The job of checked, completed requests, {@code ids} in the job's order: what a journal's
     * arrival gives back without reading the files again (they may have changed since).
     */
    static Accepted accepted(String jobId, List<String> ids, Map<String, AppRequest> requests,
                             Map<String, Expected> expected, Instant at) {
        List<Application> apps = new ArrayList<>();
        Map<String, AppRequest> ordered = new LinkedHashMap<>();
        for (String id : ids) {
            AppRequest full = requests.get(id);
            apps.add(full.kind().equals("rl")
                    ? Application.rl(id, Duration.ofMillis(full.durationMillis()), full.cpuPercent(),
                            Duration.ofMillis(full.loadPeriodMillis()))
                    : Application.swc(id, full.n(), Duration.ofMillis(full.durationMillis()), full.cpuPercent()));
            ordered.put(id, full);
        }
        return new Accepted(new FluentJob(jobId, apps, at), ordered, expected);
    }

    private static AppRequest rl(AppRequest a, String field) {
        return new AppRequest("rl", positive(a.durationMillis(), RL_DURATION.toMillis(), field + ".durationMillis"),
                cpu(a.cpuPercent(), RL_CPU, field + ".cpuPercent"),
                positive(a.loadPeriodMillis(), RL_LOAD_PERIOD.toMillis(), field + ".loadPeriodMillis"), null, null);
    }

    private static AppRequest swc(AppRequest a, String field) {
        int n = a.n() == null ? 1 : a.n();
        if (n < 0 || n > MAX_SWC_N) {
            throw new InvalidField(field + ".n", n + ": 0.." + MAX_SWC_N + " (2^n mappers)");
        }
        if (a.file() == null || a.file().isBlank()) {
            throw new InvalidField(field + ".file", "missing: the text file whose words are counted");
        }
        Path file = Path.of(a.file());
        if (!file.isAbsolute() || !Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new InvalidField(field + ".file", a.file() + ": not an absolute path of a readable file");
        }
        return new AppRequest("swc", positive(a.durationMillis(), SWC_DURATION.toMillis(), field + ".durationMillis"),
                cpu(a.cpuPercent(), SWC_CPU, field + ".cpuPercent"), 0L, n, a.file());
    }

    private static long positive(Long value, long otherwise, String field) {
        if (value == null) {
            return otherwise;
        }
        if (value <= 0) {
            throw new InvalidField(field, value + ": must be positive");
        }
        return value;
    }

    private static double cpu(Double value, double otherwise, String field) {
        if (value == null) {
            return otherwise;
        }
        if (!(value > 0 && value <= 100)) {
            throw new InvalidField(field, value + ": a percentage in (0, 100]");
        }
        return value;
    }

    private static Expected count(Path file, String field) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new InvalidField(field, file + ": larger than " + (MAX_FILE_BYTES >> 20) + " MB");
            }
            Map<String, Long> counts = new HashMap<>();
            Files.readAllLines(file).forEach(line -> Words.count(line, counts));
            return new Expected(counts.values().stream().mapToLong(Long::longValue).sum(), counts.size());
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new InvalidField(field, file + ": cannot be read as text: " + e.getMessage());
        }
    }
}
