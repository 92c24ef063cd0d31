package koala.bench;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH output cut down to one line per benchmark ("[ 3/12] worst-fit, 1000 sites: 812,345
 * decisions/s", the median of the measurement iterations, as in the table). Everything else JMH says is kept, the last {@value #KEPT} lines, so that a failed
 * run can show why ({@link #log()}).
 */
final class ProgressFormat implements OutputFormat {
    static final int KEPT = 200;

    private final PrintStream out;
    private final int total;
    private final Deque<String> log = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private int started;

    ProgressFormat(PrintStream out, int total) {
        this.out = out;
        this.total = total;
    }

    /** JMH's own output, last lines only. */
    List<String> log() {
        return List.copyOf(log);
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        started++;
        String grid = PlacementBench.byResources(params.getBenchmark())
                ? ResourcePlacementBenchmark.SITES + " sites of " + ResourceWorkload.HOSTS_PER_SITE + " hosts, by resources"
                : params.getParam("sites") + " sites";
        out.printf("  [%2d/%d] %s, %s: ", started, total, params.getParam("policy"), grid);
        out.flush();
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        if (result == null) {
            out.println("failed");
        } else {
            double[] iterations = result.getIterationResults().stream()
                    .mapToDouble(i -> i.getPrimaryResult().getScore()).sorted().toArray();
            out.printf("%,.0f decisions/s%n", PlacementBench.median(iterations));
        }
    }

    @Override
    public void print(String s) {
        partial.append(s);
    }

    @Override
    public void println(String s) {
        keep(partial + s);
        partial.setLength(0);
    }

    @Override
    public void verbosePrintln(String s) {
        keep(s);
    }

    @Override
    public void write(int b) {
        partial.append((char) b);
    }

    @Override
    public void write(byte[] b) {
        partial.append(new String(b, java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
                                IterationResult data) {
    }

    @Override
    public void startRun() {
    }

    @Override
    public void endRun(Collection<RunResult> result) {
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void close() {
        out.flush();
    }

    private void keep(String line) {
        log.addLast(line);
        if (log.size() > KEPT) {
            log.removeFirst();
        }
    }
}
