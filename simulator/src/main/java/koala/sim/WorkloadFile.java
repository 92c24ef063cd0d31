package koala.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import koala.fluent.Application;
import koala.fluent.FluentJob;

/**
 * Workloads as text files, one application per line; lines with the same job id in a row are one
 * job (a batch), submitted at the time on its first line. Blank lines and {@code #} comments are
 * skipped. Fields are separated by blanks; times in seconds from the start of the run.
 * <pre>
 * # length 86400                            the run's length (seconds), once, before the first job
 * # cpu uniform:50:100                      optional: how RLs without levels get them (default uniform:50:100)
 * AT  JOB  APP  rl   DURATION  PERIOD  [CPU% ...]   an RL: its CPU levels, one per period, cycled;
 *                                                    none: drawn from the cpu profile (seeded)
 * AT  JOB  APP  swc  DURATION  N  CPU%             an SWC with 2^N mappers, CPU% per slot
 *
 * 12.5  b1  b1.1  rl   300  30  80 95 61 77 90 55 100 72 64 88
 * 12.5  b1  b1.2  rl   300  30
 * 40    b2  b2.1  swc  600  2   30
 * </pre>
 * Errors name the file and line: {@code w.txt:7: 'x' is not a number of seconds}.
 */
public final class WorkloadFile {
    private WorkloadFile() {
    }

    /** Reads a workload; RLs without levels draw them from the file's cpu profile with {@code seed}. */
    public static Workload read(Path file, long seed) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read workload " + file + ": " + e.getMessage(), e);
        }
        return parse(file.getFileName().toString(), lines, seed);
    }

    static Workload parse(String name, List<String> lines, long seed) {
        Random random = new Random(seed);
        Duration length = null;
        CpuProfile cpu = CpuProfile.DEFAULT;
        Map<String, List<Application>> apps = new LinkedHashMap<>();
        Map<String, Double> at = new LinkedHashMap<>();
        Map<String, double[]> levels = new LinkedHashMap<>();
        String lastJob = null;
        for (int n = 1; n <= lines.size(); n++) {
            String line = lines.get(n - 1).strip();
            String where = name + ":" + n + ": ";
            try {
                if (line.startsWith("#")) {
                    String[] f = line.substring(1).strip().split("\\s+");
                    if (f[0].equals("length") && f.length == 2) {
                        length = Duration.ofMillis(Math.round(seconds(f[1]) * 1000));
                    } else if (f[0].equals("cpu") && f.length == 2) {
                        cpu = CpuProfile.parse(f[1]);
                    }
                    continue;
                }
                if (line.isEmpty()) {
                    continue;
                }
                String[] f = line.split("\\s+");
                if (f.length < 6) {
                    throw new IllegalArgumentException("expected AT JOB APP KIND DURATION ..., got " + f.length + " fields");
                }
                String job = f[1];
                if (!job.equals(lastJob) && apps.containsKey(job)) {
                    throw new IllegalArgumentException("job " + job + " appears again after other jobs");
                }
                if (!job.equals(lastJob) && !at.isEmpty() && seconds(f[0]) < at.get(lastJob)) {
                    throw new IllegalArgumentException("job " + job + " at " + f[0] + " s arrives before " + lastJob);
                }
                at.putIfAbsent(job, seconds(f[0]));
                lastJob = job;
                apps.computeIfAbsent(job, j -> new ArrayList<>()).add(app(f, cpu, random, levels));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        if (length == null) {
            throw new IllegalArgumentException(name + ": no '# length SECONDS' line before the jobs");
        }
        List<FluentJob> jobs = new ArrayList<>();
        apps.forEach((id, list) -> jobs.add(new FluentJob(id, list, Workload.START.plusMillis(Math.round(at.get(id) * 1000)))));
        return new Workload(name, jobs, levels, length);
    }

    private static Application app(String[] f, CpuProfile cpu, Random random, Map<String, double[]> levels) {
        String id = f[2];
        Duration duration = Duration.ofMillis(Math.round(seconds(f[4]) * 1000));
        switch (f[3].toLowerCase(Locale.ROOT)) {
            case "rl" -> {
                Duration period = Duration.ofMillis(Math.round(seconds(f[5]) * 1000));
                int periods = (int) Math.max(1, (duration.toMillis() + period.toMillis() - 1) / Math.max(1, period.toMillis()));
                double[] given = Arrays.stream(f, 6, f.length).mapToDouble(WorkloadFile::percent).toArray();
                double[] l = given.length > 0 ? given : cpu.draw(random, periods);
                levels.put(id, l);
                return Application.rl(id, duration, Arrays.stream(l).average().orElse(0), period);
            }
            case "swc" -> {
                if (f.length != 7) {
                    throw new IllegalArgumentException("an SWC line is AT JOB APP swc DURATION N CPU%");
                }
                return Application.swc(id, Integer.parseInt(f[5]), duration, percent(f[6]));
            }
            default -> throw new IllegalArgumentException("'" + f[3] + "' is not an application kind: rl or swc");
        }
    }

    /** Writes {@code workload} so that {@link #read} gives it back, CPU levels included (to 0.1%). */
    public static void write(Workload workload, Path file) {
        StringBuilder out = new StringBuilder("# KOALA workload: one application per line (see WorkloadFile)\n");
        out.append("# length ").append(workload.length().toMillis() / 1000.0).append('\n');
        for (FluentJob job : workload.jobs()) {
            double t = Duration.between(Workload.START, job.submittedAt()).toMillis() / 1000.0;
            for (Application a : job.apps()) {
                out.append(t).append(' ').append(job.id()).append(' ').append(a.id()).append(' ');
                double d = a.duration().toMillis() / 1000.0;
                if (a.isRl()) {
                    out.append("rl ").append(d).append(' ').append(a.loadPeriod().toMillis() / 1000.0);
                    for (double l : workload.cpuLevels().get(a.id())) {
                        out.append(' ').append(Math.round(l * 10) / 10.0);
                    }
                } else {
                    int n = Integer.numberOfTrailingZeros(a.components() - 2);
                    out.append("swc ").append(d).append(' ').append(n).append(' ').append(a.cpuPercent());
                }
                out.append('\n');
            }
        }
        try {
            Files.writeString(file, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write workload " + file + ": " + e.getMessage(), e);
        }
    }

    private static double seconds(String text) {
        try {
            double v = Double.parseDouble(text);
            if (v >= 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("'" + text + "' is not a number of seconds");
    }

    private static double percent(String text) {
        try {
            double v = Double.parseDouble(text);
            if (v >= 0 && v <= 100) {
                return v;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("'" + text + "' is not a percentage (0 to 100)");
    }
}
